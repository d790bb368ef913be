// The message actions' effects: their requests over the API client.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import {
  type Removal,
  type RemovalEffects,
  removalMachine,
} from '../../machines/messageActions/removal/removal.machine';

export const wireRemoval = (s: Services) =>
  removalMachine.provide({
    actors: {
      commit: fromPromise<unknown, Removal>(async ({ input }) => {
        if (input.mode === 'me') return s.api.call('hideMessages', { body: { messageIds: input.messageIds } });
        // One by one: the server deletes one message per request (each checked as the sender's own).
        for (const messageId of input.messageIds) await s.api.call('deleteMessage', { body: { messageId } });
        return {};
      }),
    } satisfies RemovalEffects,
  });
