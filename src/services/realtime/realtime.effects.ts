// The link to the server's effects: the socket the realtime actor opens with its token, and the ping that tells
// whether the server answers.
import { fromPromise } from 'xstate';
import {
  type ConnectivityEffects,
  connectivityMachine,
} from '../../machines/realtime/connectivity/connectivity.machine';
import { type RealtimeEffects, realtimeMachine } from '../../machines/realtime/realtime/realtime.machine';
import type { Services } from '../app/services';
import { socketActor } from './socket.actor';

export const wireRealtime = (s: Services) =>
  realtimeMachine.provide({ actors: { socket: socketActor(s.connectSocket) } satisfies RealtimeEffects });

export const wireConnectivity = (s: Services) =>
  connectivityMachine.provide({ actors: { ping: fromPromise(() => s.ping()) } satisfies ConnectivityEffects });
