// The session-long core actors provided from the real services: sign-in and refresh, the socket, the ping and
// the offline store.
import { fromPromise } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import { connectivityMachine } from '../machines/connectivity/connectivity.machine';
import { offlineStoreMachine } from '../machines/offlineStore/offlineStore.machine';
import { realtimeMachine } from '../machines/realtime/realtime.machine';
import { socketActor } from '../machines/realtime/socket.actor';
import { sessionMachine } from '../machines/session/session.machine';
import type { Services } from './services';

export function wireSession(s: Services) {
  return sessionMachine.provide({
    actors: {
      login: fromPromise(({ input }: { input: BodyOf<'login'> }) => s.authApi.login(input)),
      register: fromPromise(({ input }: { input: BodyOf<'register'> }) => s.authApi.register(input)),
      refresh: fromPromise(({ input }: { input: { refreshToken: string } }) => s.authApi.refresh(input.refreshToken)),
      logout: fromPromise<unknown, { refreshToken: string }>(({ input }) => s.authApi.logout(input.refreshToken)),
      fetchMe: fromPromise<ResponseOf<'me'> | null>(() => s.api.call('me')),
    },
  });
}

export const wireRealtime = (s: Services) =>
  realtimeMachine.provide({ actors: { socket: socketActor(s.connectSocket) } });

export const wireConnectivity = (s: Services) =>
  connectivityMachine.provide({ actors: { ping: fromPromise(() => s.ping()) } });

export const wireOfflineStore = (s: Services) =>
  offlineStoreMachine.provide({
    actors: {
      clear: fromPromise<unknown, { userId: string }>(({ input }) => s.offline.clear(input.userId)),
      forget: fromPromise<unknown, { userId: string; conversationId: string; messageId: string }>(({ input }) =>
        s.offline.forgetMessage(input.userId, input.conversationId, input.messageId),
      ),
    },
  });
