// A TCP proxy between a test server and a real service (PostgreSQL), to take the network away under it:
// `cut` resets every live connection and refuses new ones (the port is closed), as when the database host goes
// down; `stall` keeps every connection open and accepts new ones but lets no byte through in either direction
// (a network that swallows packets: no reset ever comes, only time limits end a request); `restore` forwards again,
// delivering what a stall held back as TCP would once its retransmissions get through.
import net from 'node:net';

export type ProxyMode = 'open' | 'cut' | 'stall';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Bytes held back while stalled, per direction. */
  held: { toUpstream: Buffer[]; toClient: Buffer[] };
}

export interface TcpProxy {
  port: number;
  readonly mode: ProxyMode;
  /** Connections accepted so far (a refused one is not accepted). */
  readonly accepted: number;
  /** The same URL with the proxy's host and port. */
  via(url: string): string;
  cut(): Promise<void>;
  stall(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
  /** Resolves once every connection live at the call has closed on both sides (new ones are not waited for). */
  closedNow(): Promise<void>;
}

export async function startTcpProxy(upstreamHost: string, upstreamPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = 'open';
  let accepted = 0;
  const pairs = new Set<Pair>();
  const gone = new Map<Pair, () => void>();

  const forward = (to: net.Socket, queue: Buffer[], chunk: Buffer) => {
    if (mode === 'open') to.write(chunk);
    else queue.push(chunk);
  };

  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(upstreamPort, upstreamHost);
    const pair: Pair = { client, upstream, held: { toUpstream: [], toClient: [] } };
    pairs.add(pair);
    client.on('data', (chunk) => forward(upstream, pair.held.toUpstream, chunk));
    upstream.on('data', (chunk) => forward(client, pair.held.toClient, chunk));
    const end = () => {
      pairs.delete(pair);
      gone.get(pair)?.();
      gone.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });

  return {
    port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async cut() {
      mode = 'cut';
      // The port stops listening (new connections: ECONNREFUSED) and every live one is reset (ECONNRESET).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
    async stall() {
      if (mode === 'cut') await listen();
      mode = 'stall';
    },
    async restore() {
      if (mode === 'cut') await listen();
      mode = 'open';
      for (const pair of pairs) {
        for (const chunk of pair.held.toUpstream.splice(0)) pair.upstream.write(chunk);
        for (const chunk of pair.held.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    closedNow() {
      return Promise.all([...pairs].map((pair) => new Promise<void>((resolve) => gone.set(pair, resolve)))).then(
        () => undefined,
      );
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      if (mode !== 'cut') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
