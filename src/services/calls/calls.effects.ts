// The calls feature's call actor provided from the real services: room token, ring and ringback sounds. The /calls
// page's actor is wired in page-wiring.ts, which loads with the page.
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { type CallEffects, callMachine } from '../../machines/calls/call/call.machine';

export function wireCall(s: Services) {
  return callMachine.provide({
    actors: {
      // Fetched with the first call, not with the chat list (the first bundle's budget, bench/client/bundle.ts).
      fetchToken: fromPromise(async ({ input }: { input: { room: string } }) =>
        (await import('./livekit')).requestRoomToken(s.api, input),
      ),
      checkMedia: fromPromise(async ({ input }: { input: { video: boolean } }) =>
        (await import('./media-check')).checkMedia(s.api, input),
      ),
      ring: fromCallback(() => {
        s.sound.startRing();
        return () => s.sound.stopRing();
      }),
      ringback: fromCallback(() => {
        s.sound.startRingback();
        return () => s.sound.stopRingback();
      }),
    } satisfies CallEffects,
  });
}
