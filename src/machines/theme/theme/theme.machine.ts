// The colour theme (docs/behaviour.md §10.18): the device's choice — «Системная» (default: the system's light or
// dark, followed live), «Светлая», «Тёмная» — read once, kept on change, and shown on <html data-theme>. The page
// already shows the right one before this starts (the pre-paint script of src/contract/theme.ts).
import { assign, enqueueActions, setup } from 'xstate';
import { schemeOf, type ThemeChoice } from '../../../contract/theme';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import type { ThemeCommand, ThemeContext, ThemeEffects, ThemeEvent } from './theme.protocol';

export * from './theme.protocol';

export const themeMachine = setup({
  types: {
    context: {} as ThemeContext,
    events: {} as ThemeEvent,
    children: {} as { document: 'document'; systemScheme: 'systemScheme'; readChoice: 'readChoice' },
  },
  actors: {
    readChoice: notWired('theme.readChoice') as ThemeEffects['readChoice'],
    systemScheme: notWiredCallback('theme.systemScheme') as ThemeEffects['systemScheme'],
    document: notWiredCallback('theme.document') as ThemeEffects['document'],
  },
  guards: {
    choseSystem: ({ event }) => event.type === 'theme.choose' && event.choice === 'system',
    choseLight: ({ event }) => event.type === 'theme.choose' && event.choice === 'light',
    storedSystem: (_, output: ThemeChoice) => output === 'system',
    storedLight: (_, output: ThemeChoice) => output === 'light',
  },
  actions: {
    noteSystem: assign({
      systemDark: ({ context, event }) => (event.type === 'theme.system' ? event.dark : context.systemDark),
    }),
    noteChoice: assign({
      choice: ({ context, event }) => (event.type === 'theme.choose' ? event.choice : context.choice),
    }),
    noteStored: assign((_, choice: ThemeChoice) => ({ choice })),
    apply: enqueueActions(({ context, enqueue }) => {
      const show: ThemeCommand = { type: 'theme.apply', scheme: schemeOf(context.choice, context.systemDark) };
      enqueue.sendTo('document', show);
    }),
    store: enqueueActions(({ context, enqueue }) => {
      const keep: ThemeCommand = { type: 'theme.store', choice: context.choice };
      enqueue.sendTo('document', keep);
    }),
  },
}).createMachine({
  id: 'theme',
  context: { choice: 'system', systemDark: false },
  invoke: [
    { id: 'document', src: 'document' },
    { id: 'systemScheme', src: 'systemScheme' },
  ],
  on: {
    'theme.system': { actions: 'noteSystem' },
    'theme.choose': [
      { guard: 'choseSystem', target: '.system', actions: ['noteChoice', 'store'] },
      { guard: 'choseLight', target: '.light', actions: ['noteChoice', 'store'] },
      { target: '.dark', actions: ['noteChoice', 'store'] },
    ],
  },
  initial: 'starting',
  states: {
    starting: {
      invoke: {
        id: 'readChoice',
        src: 'readChoice',
        onDone: [
          {
            guard: { type: 'storedSystem', params: ({ event }) => event.output },
            target: 'system',
            actions: { type: 'noteStored', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'storedLight', params: ({ event }) => event.output },
            target: 'light',
            actions: { type: 'noteStored', params: ({ event }) => event.output },
          },
          { target: 'dark', actions: { type: 'noteStored', params: ({ event }) => event.output } },
        ],
        onError: 'system',
      },
    },
    system: {
      entry: 'apply',
      // The system's setting changed: shown at once.
      on: { 'theme.system': { actions: ['noteSystem', 'apply'] } },
    },
    light: { entry: 'apply' },
    dark: { entry: 'apply' },
  },
});
