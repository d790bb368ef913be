// The effects of «Запланированные», loaded with its view (not in the first bundle).
import { fromPromise } from 'xstate';
import { type SchedulerEffects, schedulerMachine } from '../../machines/scheduled/scheduler/scheduler.machine';
import type { ScheduleDraft } from '../../machines/scheduled/scheduler/scheduler.protocol';
import type { Services } from '../app/services';

export const wireScheduler = (s: Services) =>
  schedulerMachine.provide({
    actors: {
      load: fromPromise(({ input }: { input: { conversationId: string } }) =>
        s.api.call('scheduled', { params: { id: input.conversationId } }),
      ),
      save: fromPromise(({ input }: { input: { conversationId: string; draft: ScheduleDraft; at: string } }) => {
        const { draft, at, conversationId } = input;
        if (draft.kind === 'reminder')
          return s.api.call('remind', { body: { messageId: draft.messageId, remindAt: at } });
        if (draft.kind === 'edit')
          return s.api.call('editScheduled', {
            params: { id: draft.id },
            body: draft.reminder ? { sendAt: at } : { content: draft.content, sendAt: at },
          });
        return s.api.call('schedule', { body: { conversationId, content: draft.content, sendAt: at } });
      }),
      sendNow: fromPromise(({ input }: { input: { id: string } }) =>
        s.api.call('sendScheduledNow', { params: { id: input.id } }),
      ),
      remove: fromPromise<unknown, { id: string }>(({ input }) =>
        s.api.call('deleteScheduled', { params: { id: input.id } }),
      ),
    } satisfies SchedulerEffects,
  });
