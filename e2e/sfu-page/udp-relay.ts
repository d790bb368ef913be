// A userspace UDP relay for the network-condition specs (this kernel has no netem): clients send to its port,
// it forwards to a target (here coturn) from one upstream socket per client, drops a chosen share of the
// datagrams in both directions, and can cap the rate each direction as a bottleneck link does: datagrams leave
// one after another at the capped rate, wait in a short queue while the link is busy, and are dropped when the
// queue would hold more than QUEUE_MS of traffic.
import dgram from 'node:dgram';

/** Longest a datagram waits at the bottleneck before it is dropped instead (a small router buffer). */
const QUEUE_MS = 200;

export interface UdpRelay {
  port: number;
  /** Share (0–1) of datagrams dropped, each direction. */
  setLoss(share: number): void;
  /** Caps each direction at this many bit/s (null: no cap). */
  setRate(bps: number | null): void;
  /** Datagrams dropped by the rate cap so far. */
  readonly capDrops: number;
  close(): Promise<void>;
}

/** One direction of a rate-capped link: a FIFO drained at `bps`, bounded by QUEUE_MS of waiting. */
class Bottleneck {
  bps: number | null = null;
  drops = 0;
  private linkFreeAt = 0;
  private readonly queue: Array<{ at: number; send: () => void }> = [];
  private timer: NodeJS.Timeout | null = null;

  pass(bytes: number, send: () => void): void {
    if (this.bps === null) {
      send();
      return;
    }
    const now = performance.now();
    const departure = Math.max(now, this.linkFreeAt);
    if (departure - now > QUEUE_MS) {
      this.drops++;
      return;
    }
    this.linkFreeAt = departure + ((bytes + 28) * 8 * 1000) / this.bps;
    if (departure <= now && this.queue.length === 0) {
      send();
      return;
    }
    this.queue.push({ at: departure, send });
    this.arm();
  }

  private arm(): void {
    if (this.timer || this.queue.length === 0) return;
    const wait = Math.max(0, (this.queue[0]?.at ?? 0) - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = performance.now();
      while (this.queue.length > 0 && (this.queue[0]?.at ?? 0) <= now + 0.5) this.queue.shift()?.send();
      this.arm();
    }, wait);
  }

  uncap(): void {
    this.bps = null;
    this.linkFreeAt = 0;
    for (const q of this.queue.splice(0)) q.send();
  }
}

export async function startUdpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<UdpRelay> {
  let loss = 0;
  const toTarget = new Bottleneck();
  const toClient = new Bottleneck();
  const front = dgram.createSocket('udp4');
  const upstreams = new Map<string, dgram.Socket>();
  const dropped = () => loss > 0 && Math.random() < loss;
  front.on('message', (msg, from) => {
    const key = `${from.address}:${from.port}`;
    let up = upstreams.get(key);
    if (!up) {
      const socket = dgram.createSocket('udp4');
      socket.on('message', (back) => {
        if (!dropped()) toClient.pass(back.length, () => front.send(back, from.port, from.address));
      });
      socket.on('error', () => {});
      socket.bind(0, '127.0.0.1');
      upstreams.set(key, socket);
      up = socket;
    }
    const upstream = up;
    if (!dropped()) toTarget.pass(msg.length, () => upstream.send(msg, targetPort, targetHost));
  });
  front.on('error', () => {});
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', () => resolve()));
  return {
    port: front.address().port,
    setLoss: (share) => {
      loss = share;
    },
    setRate: (bps) => {
      for (const b of [toTarget, toClient]) {
        if (bps === null) b.uncap();
        else b.bps = bps;
      }
    },
    get capDrops() {
      return toTarget.drops + toClient.drops;
    },
    close: async () => {
      for (const b of [toTarget, toClient]) b.uncap();
      for (const s of upstreams.values()) s.close();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
