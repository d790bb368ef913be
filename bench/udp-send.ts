// `node --import tsx bench/udp-send.ts`: CPU per UDP datagram sent on loopback, dgram's `socket.send(buf, port, ip)`
// (what the SFU's forwarding path calls, bench/README.md) against the UDP handle's own send underneath it, which
// skips dgram's checks, its address lookup and the process.nextTick before the system call. The receiver runs in
// another process so only the sender's CPU is counted; the two alternate three times in one run. With the argument
// `floor` it measures dgram's send alone and reports the best round over IPC: `npm run bench`'s same-run baseline.
import { fork } from 'node:child_process';
import dgram from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { pinToCpu } from './cpu-pin';

const N = 20_000;
const PAYLOAD = 1100; // about a forwarded video packet

interface UdpHandle {
  send(req: object, list: Buffer[], count: number, port: number, ip: string, hasCallback: boolean): number;
}

if (process.argv[2] === 'receiver') {
  const rx = dgram.createSocket('udp4');
  rx.on('message', () => {});
  rx.bind(0, '127.0.0.1', () => process.send?.(rx.address().port));
} else {
  const child = fork(fileURLToPath(import.meta.url), ['receiver'], { execArgv: ['--import', 'tsx'] });
  // `npm run bench` puts the sender on the SFU's core and the receiver on the clients', as the SFU's sends go.
  if (process.env.BENCH_SENDER_CPU) pinToCpu(process.pid, process.env.BENCH_SENDER_CPU);
  if (process.env.BENCH_RECEIVER_CPU) pinToCpu(child.pid, process.env.BENCH_RECEIVER_CPU);
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  const tx = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => tx.bind(0, '127.0.0.1', resolve));
  const buf = Buffer.alloc(PAYLOAD, 7);
  // Node's internals, for the measurement only: the socket's state symbol and the binding's SendWrap.
  const stateSymbol = Object.getOwnPropertySymbols(tx).find((s) => String(s) === 'Symbol(state symbol)');
  const handle = (tx as unknown as Record<symbol, { handle: UdpHandle }>)[stateSymbol as symbol]?.handle;
  const { SendWrap } = (process as unknown as { binding(name: string): { SendWrap: new () => object } }).binding(
    'udp_wrap',
  );
  if (!handle) throw new Error("dgram's internal shape changed");

  async function run(label: string, send: () => void): Promise<number> {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      send();
      // Let the loop turn now and then, as the SFU's does between packets.
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 20));
    const c = process.cpuUsage(c0);
    const us = (x: number) => (x / N).toFixed(2);
    if (label)
      console.log(
        `${label}: ${us(c.user + c.system)} µs CPU per datagram (${us(c.user)} user, ${us(c.system)} system)`,
      );
    return (c.user + c.system) / N;
  }

  if (process.argv[2] === 'floor') {
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 8; round++) best = Math.min(best, await run('', () => tx.send(buf, port, '127.0.0.1')));
    process.send?.({ usPerSend: best });
  } else {
    for (let round = 0; round < 3; round++) {
      await run('socket.send(buf, port, ip)', () => tx.send(buf, port, '127.0.0.1'));
      await run('UDP handle send          ', () => handle.send(new SendWrap(), [buf], 1, port, '127.0.0.1', false));
    }
  }
  child.kill();
  tx.close();
}
