// The /calls page's actor provided from the real services: the microphone/camera check, room tokens, the media
// server's address, the call history. A module of its own: it loads with the page (src/machines/app/registry.ts), not with the first bundle.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { type CallsPageEffects, callsPageMachine } from '../../machines/calls/callsPage/callsPage.machine';
import { configuredVideoServerUrl, requestRoomToken, videoServerFallbackUrl } from './livekit';
import { checkMedia } from './media-check';

export function wireCallsPage(s: Services) {
  return callsPageMachine.provide({
    actors: {
      checkMedia: fromPromise(({ input }: { input: { video: boolean } }) => checkMedia(s.api, input)),
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
    } satisfies CallsPageEffects,
  });
}
