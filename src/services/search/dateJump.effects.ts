// «Перейти к дате»'s actor provided from the real services (loaded with the conversation's search bar).
import { fromPromise } from 'xstate';
import { localTzOffset } from '../../contract/local-day';
import {
  type DateJumpEffects,
  dateJumpMachine,
  type DayRequest,
} from '../../machines/search/dateJump/dateJump.machine';
import type { Services } from '../app/services';

export const wireDateJump = (s: Services) =>
  dateJumpMachine.provide({
    actors: {
      findDay: fromPromise(({ input, signal }: { input: DayRequest; signal: AbortSignal }) =>
        s.api.call('messageAtDate', {
          params: { id: input.conversationId },
          // The offset of that day (summer time), east positive.
          query: { date: input.day, tz: String(localTzOffset(new Date(`${input.day}T12:00:00`))) },
          signal,
        }),
      ),
    } satisfies DateJumpEffects,
  });
