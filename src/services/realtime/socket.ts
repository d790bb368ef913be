// The socket factory (docs/behaviour.md §7): websocket transport only, the address rules, the token both in the
// auth payload and as a query parameter, the default path; reconnection follows socket.io's defaults.
import { io, type Socket } from 'socket.io-client';
import type { ClientEvent, ClientEventName, ServerEvent, ServerEventName } from '../../contract/events';
import { buildSettings, socketUrl } from '../app/endpoints';

export type ServerToClient = { [K in ServerEventName]: (payload: ServerEvent<K>) => void };
export type ClientToServer = { [K in ClientEventName]: (payload: ClientEvent<K>, ack?: (r: unknown) => void) => void };
export type AppSocket = Socket<ServerToClient, ClientToServer>;

export function defaultSocketUrl(): string {
  return socketUrl(window.location, buildSettings());
}

export function createSocket(token: string, url: string = defaultSocketUrl()): AppSocket {
  return io(url, {
    transports: ['websocket'],
    auth: { token },
    query: { token },
    autoConnect: true,
  });
}
