// Where machines meet services: the root machine with every child's effectful actors provided from the real
// (or, in tests, partly replaced) services. Feature machines add their entry here.
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf, ResponseOf } from '../contract/api';
import { appMachine } from '../machines/app/app.machine';
import { callMachine } from '../machines/call/call.machine';
import { callsPageMachine } from '../machines/callsPage/callsPage.machine';
import { connectivityMachine } from '../machines/connectivity/connectivity.machine';
import { realtimeMachine } from '../machines/realtime/realtime.machine';
import { socketActor } from '../machines/realtime/socket.actor';
import { sessionMachine } from '../machines/session/session.machine';
import { configuredVideoServerUrl, requestRoomToken, videoServerFallbackUrl } from '../services/livekit';
import type { Services } from './services';

export function wireApp(s: Services) {
  return appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          login: fromPromise(({ input }: { input: BodyOf<'login'> }) => s.authApi.login(input)),
          register: fromPromise(({ input }: { input: BodyOf<'register'> }) => s.authApi.register(input)),
          refresh: fromPromise(({ input }: { input: { refreshToken: string } }) => s.authApi.refresh(input.refreshToken)),
          logout: fromPromise<unknown, { refreshToken: string }>(({ input }) => s.authApi.logout(input.refreshToken)),
          fetchMe: fromPromise<ResponseOf<'me'> | null>(() => s.api.call('me')),
        },
      }),
      realtime: realtimeMachine.provide({ actors: { socket: socketActor(s.connectSocket) } }),
      connectivity: connectivityMachine.provide({ actors: { ping: fromPromise(() => s.ping()) } }),
      call: callMachine.provide({
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
      }),
      callsPage: callsPageMachine.provide({
        actors: {
          fetchToken: fromPromise(({ input }: { input: { room: string; participantName: string } }) =>
            requestRoomToken(s.api, input),
          ),
          serverAddress: fromPromise(async () =>
            typeof window === 'undefined' ? null : videoServerFallbackUrl(window.location, configuredVideoServerUrl()),
          ),
        },
      }),
    },
  });
}
