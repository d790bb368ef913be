// The media workers of the main process (SFU_WORKERS, one per core by default): the signalling websockets stay here,
// each room lives on one worker thread (worker.ts) for its whole life, and a new room goes to the worker with the
// fewest clients. A worker that dies takes only its rooms: their clients get a leave that makes them rejoin, which
// lands on a live worker, and the worker is started again.
import { Worker } from 'node:worker_threads';
import { DisconnectReason, LeaveRequest, LeaveRequest_Action } from '@livekit/protocol';
import type { WebSocket } from 'ws';
import { type EngineConfig, emptyStats, type RoomMember, type SfuStats } from '../engine';
import type { SfuLogger } from '../logger';
import { CloseCode, encodeResponse } from '../signal';
import type { Admission } from '../transport/signal-server';
import type { FromWorker, ToWorker } from './messages';

interface Slot {
  index: number;
  worker: Worker;
  /** Answered 'ready': a slot that dies before that is not restarted (it would die again). */
  ready: boolean;
  stats: SfuStats;
  conns: Set<Conn>;
  /** Answers awaited from the worker; null when it died first. */
  replies: Map<number, (value: number | RoomMember[] | null) => void>;
}

interface Conn {
  id: number;
  ws: WebSocket;
  slot: Slot;
  room: string;
}

interface Placement {
  slot: Slot;
  /** The worker holds the room (it said so); it may still while no websocket of it is open (clients resuming). */
  open: boolean;
  /** Websockets of the room open here. */
  conns: number;
}

/**
 * How long a worker has to close its UDP sockets before it is terminated all the same (a thread stuck in a loop
 * never answers). Closing takes a turn of its event loop: milliseconds, on a busy host too.
 */
const SOCKET_CLOSE_TIMEOUT_MS = 1000;

const BOOT = new URL('./boot.mjs', import.meta.url);
const ENTRY = new URL('./worker.ts', import.meta.url).href;

export class WorkerPool {
  private readonly slots: Array<Slot | null>;
  private readonly placements = new Map<string, Placement>();
  private nextId = 1;
  private shuttingDown = false;

  private constructor(
    size: number,
    private readonly config: EngineConfig,
    private readonly logger: SfuLogger,
    private readonly onParticipants: (room: string, identities: string[]) => void,
  ) {
    this.slots = Array.from({ length: size }, () => null);
  }

  /**
   * The first thread starts now, in the background: a worker costs about 65 MB and a second of CPU to start (more on a
   * busy host, where a join that waited for it met the client's signalling timeout), so a server's first call must
   * not wait for it. The next one starts when no idle worker is left (keepSpare), so that a new room finds a worker
   * already up.
   */
  static async start(
    size: number,
    config: EngineConfig,
    logger: SfuLogger,
    onParticipants: (room: string, identities: string[]) => void = () => {},
  ): Promise<WorkerPool> {
    const pool = new WorkerPool(size, config, logger, onParticipants);
    if (size > 0)
      pool
        .spawn(0)
        .catch((err: unknown) => logger.error({ worker: 0, err: String(err) }, 'media worker did not start'));
    return pool;
  }

  private spawn(index: number): Promise<void> {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY, config: this.config }, name: `sfu-media-${index}` });
    const slot: Slot = { index, worker, ready: false, stats: emptyStats(), conns: new Set(), replies: new Map() };
    this.slots[index] = slot;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromWorker) => {
        if (m.t === 'ready') {
          slot.ready = true;
          resolve();
        } else this.fromWorker(slot, m);
      });
      worker.on('error', (err) => {
        this.logger.error({ worker: index, err: String(err) }, 'media worker failed');
        reject(err);
      });
      worker.on('exit', (code) => {
        reject(new Error(`media worker ${index} exited (${code})`));
        this.exited(slot, code);
      });
    });
  }

  private fromWorker(slot: Slot, m: FromWorker): void {
    switch (m.t) {
      case 'send': {
        const conn = this.connOf(slot, m.id);
        if (conn && conn.ws.readyState === conn.ws.OPEN) conn.ws.send(m.data);
        break;
      }
      case 'close': {
        const conn = this.connOf(slot, m.id);
        if (conn && conn.ws.readyState <= conn.ws.OPEN) conn.ws.close(m.code, m.reason);
        break;
      }
      case 'room': {
        const place = this.placements.get(m.room);
        if (place?.slot !== slot) break;
        place.open = m.open;
        this.dropIfUnused(m.room, place);
        break;
      }
      case 'people':
        this.onParticipants(m.room, m.identities);
        break;
      case 'stats':
        slot.stats = m.stats;
        break;
      case 'reply':
        slot.replies.get(m.req)?.(m.value);
        slot.replies.delete(m.req);
        break;
      case 'log':
        this.logger[m.level]({ worker: slot.index, ...(typeof m.obj === 'string' ? { text: m.obj } : m.obj) }, m.msg);
        break;
    }
  }

  private readonly connsById = new Map<number, Conn>();

  private connOf(slot: Slot, id: number): Conn | undefined {
    const conn = this.connsById.get(id);
    return conn?.slot === slot ? conn : undefined;
  }

  private post(slot: Slot, m: ToWorker, transfer?: ArrayBuffer[]): void {
    slot.worker.postMessage(m, transfer);
  }

  /** An authenticated websocket: to the worker of its room, or the least loaded one for a new room. */
  accept(ws: WebSocket, { grants, mode, joinRequest }: Admission): void {
    let place = this.placements.get(grants.room);
    if (!place) {
      const slot = this.leastLoaded();
      if (!slot) {
        ws.close(CloseCode.goingAway, 'no media worker');
        return;
      }
      place = { slot, open: false, conns: 0 };
      this.placements.set(grants.room, place);
    }
    const { slot } = place;
    const conn: Conn = { id: this.nextId++, ws, slot, room: grants.room };
    place.conns++;
    slot.conns.add(conn);
    this.connsById.set(conn.id, conn);
    this.keepSpare();
    this.post(slot, { t: 'open', id: conn.id, grants, mode, joinRequest: joinRequest?.toBinary() ?? null });
    ws.on('message', (data: Buffer | Buffer[], isBinary) => {
      if (this.connsById.get(conn.id) !== conn) return;
      // A copy of its own (ws hands out views of pooled buffers) moves to the worker without another copy.
      const bytes = Array.isArray(data) ? Buffer.concat(data) : data;
      const owned = new Uint8Array(bytes.byteLength);
      owned.set(bytes);
      this.post(slot, { t: 'frame', id: conn.id, data: owned.buffer, binary: isBinary }, [owned.buffer]);
    });
    ws.on('close', () => {
      if (!this.forget(conn)) return;
      this.post(slot, { t: 'closed', id: conn.id });
    });
    ws.on('error', (err) => this.logger.debug({ err }, 'signal socket error'));
  }

  /** Drops a live connection from the tables; false when it was already gone (its worker died). */
  private forget(conn: Conn): boolean {
    if (this.connsById.get(conn.id) !== conn) return false;
    this.connsById.delete(conn.id);
    conn.slot.conns.delete(conn);
    const place = this.placements.get(conn.room);
    if (place?.slot === conn.slot) {
      place.conns--;
      this.dropIfUnused(conn.room, place);
    }
    return true;
  }

  private dropIfUnused(room: string, place: Placement): void {
    if (!place.open && place.conns <= 0) this.placements.delete(room);
  }

  /**
   * An idle worker — one that is up first, else one still starting (the room's messages wait in its port until it
   * listens) — else a worker started now, else the one with the fewest clients. A room keeps a worker to itself
   * while there are enough; keepSpare has the next one running before a room needs it.
   */
  private leastLoaded(): Slot | null {
    let best: Slot | null = null;
    for (const slot of this.slots) {
      if (!slot) continue;
      const idleAndUp = slot.conns.size === 0 && slot.ready;
      if (!best || slot.conns.size < best.conns.size || (idleAndUp && !best.ready)) best = slot;
    }
    if (best && best.conns.size === 0) return best;
    const free = this.slots.indexOf(null);
    if (free < 0 || this.shuttingDown) return best;
    this.startWorker(free);
    return this.slots[free];
  }

  /**
   * While no worker is idle, the next one starts in the background, so that the next room finds one up: a join
   * placed on a starting worker waits in its port for the whole start (seconds on a busy host, more with a cold
   * compile cache), past the client's join timeout, and the client's second join beside its first (duplicate
   * identity, the second offer refused) left that participant's media stopped.
   */
  private keepSpare(): void {
    if (this.shuttingDown || this.slots.some((slot) => slot !== null && slot.conns.size === 0)) return;
    const free = this.slots.indexOf(null);
    if (free >= 0) this.startWorker(free);
  }

  private startWorker(index: number): void {
    this.spawn(index).catch((err: unknown) =>
      this.logger.error({ worker: index, err: String(err) }, 'media worker did not start'),
    );
  }

  private exited(slot: Slot, code: number): void {
    if (this.slots[slot.index] !== slot) return;
    this.slots[slot.index] = null;
    for (const reply of slot.replies.values()) reply(null);
    slot.replies.clear();
    if (this.shuttingDown) return;
    this.logger.error({ worker: slot.index, code, clients: slot.conns.size }, 'media worker exited');
    for (const [room, place] of this.placements) if (place.slot === slot) this.placements.delete(room);
    // Its clients reconnect in full (a new join): livekit-client does on this leave, and the join finds a live worker.
    const leave = encodeResponse({
      case: 'leave',
      value: new LeaveRequest({
        canReconnect: true,
        action: LeaveRequest_Action.RECONNECT,
        reason: DisconnectReason.MIGRATION,
      }),
    });
    for (const conn of [...slot.conns]) {
      this.forget(conn);
      if (conn.ws.readyState !== conn.ws.OPEN) continue;
      conn.ws.send(leave);
      conn.ws.close(CloseCode.goingAway, 'media worker restarted');
    }
    if (!slot.ready) return;
    this.spawn(slot.index).catch((err: unknown) =>
      this.logger.error({ worker: slot.index, err: String(err) }, 'media worker did not restart'),
    );
  }

  removeParticipants(room: string, identities: readonly string[]): Promise<number> {
    const place = this.placements.get(room);
    if (!place) return Promise.resolve(0);
    return this.request(place.slot, (req) => ({ t: 'remove', req, room, identities: [...identities] })).then((n) =>
      typeof n === 'number' ? n : 0,
    );
  }

  async members(room: string): Promise<RoomMember[]> {
    const place = this.placements.get(room);
    if (!place) return [];
    const list = await this.request(place.slot, (req) => ({ t: 'members', req, room }));
    return Array.isArray(list) ? list : [];
  }

  private request(slot: Slot, message: (req: number) => ToWorker): Promise<number | RoomMember[] | null> {
    const req = this.nextId++;
    return new Promise((resolve) => {
      slot.replies.set(req, resolve);
      this.post(slot, message(req));
    });
  }

  /** The workers' figures as they last sent them (each second, and after each join or removal). */
  stats(): SfuStats {
    const out = emptyStats();
    for (const s of this.workerStats()) {
      for (const key of Object.keys(out) as Array<keyof SfuStats>) out[key] += s[key];
    }
    return out;
  }

  workerStats(): SfuStats[] {
    return this.slots.map((slot) => slot?.stats ?? emptyStats());
  }

  /** Which worker (index) holds each room. */
  placement(): Map<string, number> {
    return new Map([...this.placements].map(([room, place]) => [room, place.slot.index]));
  }

  /** Stops a worker as a crash would (tests and diagnostics): its rooms' clients are told, the worker restarts. */
  async terminate(index: number): Promise<void> {
    const slot = this.slots[index];
    if (slot) await this.stop(slot);
  }

  /**
   * Terminates a worker once it has closed its UDP sockets: a datagram that reaches an open one while the thread is
   * torn down aborts the whole process (Node hands it to JavaScript that may no longer run; udp-sockets.ts).
   */
  private async stop(slot: Slot): Promise<void> {
    if (this.slots[slot.index] === slot) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(resolve, SOCKET_CLOSE_TIMEOUT_MS, 'late');
      });
      const answer = await Promise.race([this.request(slot, (req) => ({ t: 'closeSockets', req })), late]);
      clearTimeout(timer);
      if (answer === 'late') this.logger.warn({ worker: slot.index }, 'media worker did not close its sockets in time');
    }
    await slot.worker.terminate();
  }

  /** Ready again after a crash (tests). */
  isReady(index: number): boolean {
    return this.slots[index]?.ready ?? false;
  }

  async close(reason: string): Promise<void> {
    this.shuttingDown = true;
    const live = this.slots.filter((s): s is Slot => s !== null);
    // Participants get their leave (server shutdown) before the threads stop.
    await Promise.all(
      live.map((slot) => (slot.ready ? this.request(slot, (req) => ({ t: 'shutdown', req, reason })) : 0)),
    );
    await Promise.all(live.map((slot) => this.stop(slot)));
  }
}
