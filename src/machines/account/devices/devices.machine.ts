// «Устройства» (docs/accounts.md): loads the sign-ins, then ends one («Завершить») or every other one («Завершить
// все другие») and loads the list again. One request at a time; a failure keeps the list and says why.
import { assertEvent, assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { notWired } from '../../shared/not-wired';
import {
  DEVICES_FAILED,
  type DevicesContext,
  type DevicesEffects,
  type DevicesEvent,
  END_FAILED,
} from './devices.protocol';

export * from './devices.protocol';

export const devicesMachine = setup({
  types: { context: {} as DevicesContext, events: {} as DevicesEvent },
  actors: {
    loadDevices: notWired('devices.loadDevices') as DevicesEffects['loadDevices'],
    endDevice: notWired('devices.endDevice') as DevicesEffects['endDevice'],
  },
  guards: {
    /** Only another sign-in can be ended here (this one signs out with «Выйти»). */
    endsAnother: ({ context, event }) => {
      assertEvent(event, 'devices.end');
      return context.devices.some((d) => d.id === event.id && !d.current);
    },
    hasOthers: ({ context }) => context.devices.some((d) => !d.current),
  },
}).createMachine({
  id: 'devices',
  context: { devices: [], ending: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadDevices',
        onDone: { target: 'ready', actions: assign({ devices: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureMessage(event.error, DEVICES_FAILED) }),
        },
      },
    },
    failed: { on: { 'devices.reload': 'loading' } },
    ready: {
      on: {
        'devices.reload': 'loading',
        'devices.end': {
          guard: 'endsAnother',
          target: 'ending',
          actions: assign({ ending: ({ event }) => event.id, error: null }),
        },
        'devices.endOthers': {
          guard: 'hasOthers',
          target: 'ending',
          actions: assign({ ending: 'others', error: null }),
        },
      },
    },
    ending: {
      tags: ['busy'],
      invoke: {
        src: 'endDevice',
        input: ({ context }) => ({ id: context.ending ?? 'others' }),
        onDone: { target: 'loading', actions: assign({ ending: null }) },
        onError: {
          target: 'ready',
          actions: assign({ ending: null, error: ({ event }) => failureMessage(event.error, END_FAILED) }),
        },
      },
    },
  },
});
