// The blocking feature's effects: its requests over the API client.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { blockingMachine } from '../../machines/blocking/blocking/blocking.machine';
import type { BlockingEffects } from '../../machines/blocking/blocking/blocking.protocol';

export const wireBlocking = (s: Services) =>
  blockingMachine.provide({
    actors: {
      loadBlocked: fromPromise(async () => (await s.api.call('blockedUsers')).users),
      setBlock: fromPromise<unknown, { userId: string; block: boolean }>(({ input }) =>
        s.api.call(input.block ? 'blockUser' : 'unblockUser', { body: { userId: input.userId } }),
      ),
    } satisfies BlockingEffects,
  });
