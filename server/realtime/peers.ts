// Notices between the server processes of one deployment, over Redis beside the socket adapter (socket.io's
// serverSideEmit): the conversation list cache tells the others what changed (conversations/lists.plugin.ts).
import type { Redis } from 'ioredis';
import type { Server } from 'socket.io';

export interface PeerChannel {
  emit(event: string, ...args: unknown[]): void;
  on(event: string, handler: (...args: unknown[]) => void): void;
  /** After the subscription was re-established: notices sent meanwhile may be lost. */
  onResubscribed(handler: () => void): void;
}

export function createPeerChannel(io: Server, subscriber: Redis): PeerChannel {
  return {
    emit: (event, ...args) => io.serverSideEmit(event, ...args),
    on: (event, handler) => io.on(event, handler),
    onResubscribed: (handler) => {
      let first = true;
      subscriber.on('ready', () => {
        if (!first) handler();
        first = false;
      });
    },
  };
}
