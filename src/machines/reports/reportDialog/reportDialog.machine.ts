// «Пожаловаться» (protocol: reportDialog.protocol.ts): sends the report once; «Жалоба отправлена» shows for
// TIMINGS.successMessageMs and the actor is done (the view closes the dialog); a failure keeps the form and says why.
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import {
  REPORT_FAILED,
  REPORT_TAGS,
  type ReportDialogContext,
  type ReportDialogEffects,
  type ReportDialogEvent,
  type ReportDialogInput,
} from './reportDialog.protocol';

export * from './reportDialog.protocol';

export const reportDialogMachine = setup({
  types: {
    context: {} as ReportDialogContext,
    events: {} as ReportDialogEvent,
    input: {} as ReportDialogInput | undefined,
  },
  actors: {
    sendReport: notWired('reportDialog.sendReport') as ReportDialogEffects['sendReport'],
  },
  delays: { sentNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'reportDialog',
  context: ({ input }) => ({ target: input?.target ?? { userId: '' }, reason: null, comment: '', error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'report.send': {
          target: 'sending',
          actions: assign({ reason: ({ event }) => event.reason, comment: ({ event }) => event.comment, error: null }),
        },
      },
    },
    sending: {
      tags: [REPORT_TAGS.busy],
      invoke: {
        id: 'sendReport',
        src: 'sendReport',
        input: ({ context }) => ({
          target: context.target,
          reason: context.reason ?? 'other',
          comment: context.comment,
        }),
        onDone: 'sent',
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, REPORT_FAILED) }),
        },
      },
    },
    sent: { tags: [REPORT_TAGS.sent], after: { sentNotice: 'done' } },
    done: { type: 'final' },
  },
});
