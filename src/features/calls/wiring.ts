// The calls feature's actors provided from the real services: the call (room token, ring and ringback sounds)
// and the /calls page (room token, the media server's address).
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../../core/app/services';
import { callMachine } from './machines/call/call.machine';
import { callsPageMachine } from './machines/callsPage/callsPage.machine';
import { configuredVideoServerUrl, requestRoomToken, videoServerFallbackUrl } from './services/livekit';

export function wireCall(s: Services) {
  return callMachine.provide({
    actors: {
      fetchToken: fromPromise(({ input }: { input: { room: string } }) => requestRoomToken(s.api, input)),
      ring: fromCallback(() => {
        s.sound.startRing();
        return () => s.sound.stopRing();
      }),
      ringback: fromCallback(() => {
        s.sound.startRingback();
        return () => s.sound.stopRingback();
      }),
    },
  });
}

export function wireCallsPage(s: Services) {
  return callsPageMachine.provide({
    actors: {
      fetchToken: fromPromise(({ input }: { input: { room: string; participantName: string } }) =>
        requestRoomToken(s.api, input),
      ),
      // The address the server hands out with its tokens; a guess from this page's host while it has not answered.
      serverAddress: fromPromise(async () => {
        try {
          return (await s.api.call('livekitUrl')).url;
        } catch {
          return typeof window === 'undefined'
            ? null
            : videoServerFallbackUrl(window.location, configuredVideoServerUrl());
        }
      }),
      loadHistory: fromPromise(async () => (await s.api.call('callHistory', { query: {} })).calls),
    },
  });
}
