// A media worker thread: its own rooms, peer connections, UDP sockets and sweep (engine.ts), the media path exactly
// as in-process. Clients' signalling reaches it as numbered channels relayed by the main process (pool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { JoinRequest } from '@livekit/protocol';
import { type EngineConfig, startEngine } from '../engine';
import { loadTransport } from '../session/peer-factory';
import type { SfuLogger } from '../logger';
import { CloseCode, encodeResponse, type RequestMessage, type ResponseMessage, type SignalLink } from '../signal';
import { decodeSignalRequest } from '../transport/signal-connection';
import type { FromWorker, LogLevel, ToWorker } from './messages';
import { watchUdpSockets } from './udp-sockets';

const port = parentPort;
if (!port) throw new Error('workers/worker.ts runs in a worker thread');
const config = (workerData as { config: EngineConfig }).config;
// Before any room makes one: every socket of this thread is closed before it stops (udp-sockets.ts says why).
const udpSockets = watchUdpSockets();

const post = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

const log =
  (level: LogLevel) =>
  (obj: object | string, msg?: string): void => {
    try {
      post({ t: 'log', level, obj, msg });
    } catch {
      // Something in it does not clone (a function, a socket): its text still says what happened.
      post({ t: 'log', level, obj: typeof obj === 'string' ? obj : String(JSON.stringify(obj)), msg });
    }
  };
const logger: SfuLogger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

/** One client's websocket as the session layer sees it: the frames travel through the main process. */
class ChannelSignal implements SignalLink {
  private closing = false;
  private closed = false;
  private readonly closedHandlers: Array<() => void> = [];

  constructor(
    private readonly id: number,
    readonly onRequest: (msg: RequestMessage) => void,
  ) {}

  get open(): boolean {
    return !this.closing && !this.closed;
  }

  onClose(handler: () => void): void {
    this.closedHandlers.push(handler);
  }

  send(message: ResponseMessage): void {
    if (this.open) this.sendOwned(encodeResponse(message));
  }

  sendEncoded(bytes: Uint8Array): void {
    // Shared by every participant of a room: each channel gets its own copy.
    if (this.open) post({ t: 'send', id: this.id, data: bytes });
  }

  private sendOwned(bytes: Uint8Array): void {
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    if (whole && bytes.buffer instanceof ArrayBuffer) post({ t: 'send', id: this.id, data: bytes }, [bytes.buffer]);
    else post({ t: 'send', id: this.id, data: bytes });
  }

  close(code: number, reason: string): void {
    if (this.closing || this.closed) return;
    this.closing = true;
    post({ t: 'close', id: this.id, code, reason: Buffer.from(reason).subarray(0, 123).toString() });
  }

  /** The websocket is gone (the main process said so). */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    for (const h of this.closedHandlers) h();
  }

  frame(bytes: Uint8Array, binary: boolean): void {
    if (!this.open) return;
    const decoded = decodeSignalRequest(bytes, binary);
    if ('message' in decoded) {
      this.onRequest(decoded.message);
      return;
    }
    if (decoded.code === CloseCode.invalidData) logger.warn({ err: decoded.error }, 'malformed signal frame');
    this.close(decoded.code, decoded.reason);
  }
}

// As server/main.ts does for the main thread: logged, not fatal (in a worker it would end the thread and its rooms).
process.on('unhandledRejection', (err) => logger.error({ err: String(err) }, 'unhandled rejection'));
// An uncaught exception still ends the thread (a monitor leaves that as it is), but with its sockets closed first:
// close() stops a socket reading at once, so no datagram arrives while the thread is torn down.
process.on('uncaughtExceptionMonitor', () => void udpSockets.closeAll());

// The native transport's addon loads here, in this thread, only when it is chosen.
await loadTransport(config.transport);
const engine = startEngine(config, {
  logger,
  now: Date.now,
  onRoomChange: (room, open) => post({ t: 'room', room, open }),
  onParticipants: (room, identities) => post({ t: 'people', room, identities }),
});
const channels = new Map<number, ChannelSignal>();

// The main process's figures (stats(), metrics) come from these, a second old at most.
const statsTimer = setInterval(() => post({ t: 'stats', stats: engine.stats() }), 1000);
statsTimer.unref();

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'open': {
      const joinRequest = m.joinRequest ? JoinRequest.fromBinary(m.joinRequest) : null;
      try {
        engine.registry.accept(
          (onRequest) => {
            const channel = new ChannelSignal(m.id, onRequest);
            channels.set(m.id, channel);
            channel.onClose(() => channels.delete(m.id));
            return channel;
          },
          m.grants,
          m.mode,
          joinRequest,
        );
      } catch (err) {
        logger.error({ err: String(err) }, 'join failed');
        post({ t: 'close', id: m.id, code: CloseCode.policy, reason: 'join failed' });
      }
      post({ t: 'stats', stats: engine.stats() });
      break;
    }
    case 'frame':
      channels.get(m.id)?.frame(new Uint8Array(m.data), m.binary);
      break;
    case 'closed':
      channels.get(m.id)?.ended();
      break;
    case 'remove':
      post({ t: 'reply', req: m.req, value: engine.removeParticipants(m.room, m.identities) });
      post({ t: 'stats', stats: engine.stats() });
      break;
    case 'members':
      post({ t: 'reply', req: m.req, value: engine.members(m.room) });
      break;
    case 'shutdown':
      clearInterval(statsTimer);
      engine.close(m.reason);
      post({ t: 'reply', req: m.req, value: 0 });
      break;
    case 'closeSockets':
      void udpSockets.closeAll().then(() => post({ t: 'reply', req: m.req, value: 0 }));
      break;
  }
});
post({ t: 'ready' });
