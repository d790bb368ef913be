// A stand-in for a Redis that is up but failing: it speaks enough of the protocol for the socket.io adapter to
// connect, subscribe and publish, and answers PING with an error. (A closed port would do too, but the adapter
// then leaves its failed publishes unhandled, which a test run reports as errors.)
import net from 'node:net';

/** Commands of a RESP stream (arrays of bulk strings), each as its words; what is incomplete stays in `rest`. */
function commands(buffer: string): { parsed: string[][]; rest: string } {
  const parsed: string[][] = [];
  let at = 0;
  for (;;) {
    const m = /^\*(\d+)\r\n/.exec(buffer.slice(at));
    if (!m) break;
    let pos = at + m[0].length;
    const words: string[] = [];
    for (let i = 0; i < Number(m[1]); i++) {
      const h = /^\$(\d+)\r\n/.exec(buffer.slice(pos));
      if (!h || buffer.length < pos + h[0].length + Number(h[1]) + 2) return { parsed, rest: buffer.slice(at) };
      pos += h[0].length;
      words.push(buffer.slice(pos, pos + Number(h[1])));
      pos += Number(h[1]) + 2;
    }
    parsed.push(words);
    at = pos;
  }
  return { parsed, rest: buffer.slice(at) };
}

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

function answer([name = '', ...args]: string[]): string {
  switch (name.toUpperCase()) {
    case 'PING':
      return '-ERR this Redis is failing\r\n';
    case 'INFO':
      return bulk('# Server\r\nredis_version:7.0.0\r\nloading:0\r\n');
    case 'SUBSCRIBE':
    case 'PSUBSCRIBE':
      return args.map((ch, i) => `*3\r\n${bulk(name.toLowerCase())}${bulk(ch)}:${i + 1}\r\n`).join('');
    case 'UNSUBSCRIBE':
    case 'PUNSUBSCRIBE':
      return args.map((ch, i) => `*3\r\n${bulk(name.toLowerCase())}${bulk(ch)}:${args.length - i - 1}\r\n`).join('');
    case 'PUBLISH':
      return ':0\r\n';
    case 'PUBSUB':
      return '*0\r\n';
    default:
      return '+OK\r\n';
  }
}

export async function failingRedis(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    socket.on('data', (chunk) => {
      const { parsed, rest } = commands(pending + chunk.toString('utf8'));
      pending = rest;
      for (const c of parsed) {
        socket.write(answer(c));
        if (c[0]?.toUpperCase() === 'QUIT') socket.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
