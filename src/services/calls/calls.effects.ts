// The calls feature's call actor provided from the real services: room token, ring and ringback sounds. The /calls
// page's actor is wired in page-wiring.ts, which loads with the page.
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { type CallEffects, callMachine } from '../../machines/calls/call/call.machine';
import { requestRoomToken } from './livekit';
import { checkMedia } from '../app/secure-context';

export function wireCall(s: Services) {
  return callMachine.provide({
    actors: {
      fetchToken: fromPromise(({ input }: { input: { room: string } }) => requestRoomToken(s.api, input)),
      checkMedia: fromPromise(({ input }: { input: { video: boolean } }) => checkMedia(s.api, input)),
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
