// Every UDP socket of this thread (werift's ICE and TURN sockets, and any other), as node:dgram announces them on its
// `udp.socket` diagnostics channel, so that a media worker can close them all before it is stopped. A datagram that
// reaches a socket while worker.terminate() tears the thread down is handed to JavaScript that may no longer run:
// Node aborts the whole process (FATAL ERROR: v8::FromJust, in AddressToJS under UDPWrap::OnRecv). A closed socket
// reads nothing more, so the thread ends with no datagram to deliver.
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:dgram';

const discard = (): void => {};

export interface UdpSockets {
  /** Closes every socket, and from now on each new one as it is made; resolves when all have closed. */
  closeAll(): Promise<void>;
}

/** Starts watching this thread's UDP sockets: call before the first is made. One watcher a thread. */
export function watchUdpSockets(): UdpSockets {
  const open = new Set<Socket>();
  let closing = false;

  const closed = (socket: Socket): Promise<void> =>
    new Promise((resolve) => {
      if (!open.has(socket)) return resolve();
      socket.once('close', () => resolve());
      // The rooms' timers (padding, reports) run on until the thread stops, and a send on a closed socket throws:
      // that would end the thread with an error of its own.
      socket.send = discard;
      try {
        socket.close();
      } catch {
        // Closing already (its owner closed it): its 'close' event is on its way.
      }
    });

  subscribe('udp.socket', (message) => {
    const { socket } = message as { socket: Socket };
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    // Made while the worker is being stopped: it never reads (its owner's bind then fails, as on a closed socket).
    if (closing) void closed(socket);
  });

  return {
    closeAll: async () => {
      closing = true;
      await Promise.all([...open].map(closed));
    },
  };
}
