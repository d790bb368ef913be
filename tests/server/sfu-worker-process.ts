// The embedded SFU on one media worker, in a process of its own, for sfu-worker-sockets.test.ts: a process that
// aborts shows there as an exit signal rather than taking the test runner down. Driven over the IPC channel: each
// request { id, op, index? , room? } is answered { id, value } (or { id, error }).
import { startSfu } from '../../server/sfu/index';

const send = process.send?.bind(process);
if (!send) throw new Error('sfu-worker-process.ts runs as a child with an IPC channel');

const sfu = await startSfu({
  port: 0,
  host: '127.0.0.1',
  apiKey: process.env.SFU_API_KEY ?? '',
  apiSecret: process.env.SFU_API_SECRET ?? '',
  hostCandidates: ['127.0.0.1'],
  turn: null,
  workers: 1,
});
const workers = sfu.workers;
if (!workers) throw new Error('no media workers');

interface Request {
  id: number;
  op: 'terminate' | 'ready' | 'participants' | 'close';
  index?: number;
  room?: string;
}

process.on('message', (m: Request) => {
  const answer = async (): Promise<unknown> => {
    switch (m.op) {
      case 'terminate':
        await workers.terminate(m.index ?? 0);
        return true;
      case 'ready':
        return workers.isReady(m.index ?? 0);
      case 'participants':
        return (await sfu.participants(m.room ?? '')).map((p) => p.identity);
      case 'close':
        await sfu.close();
        return true;
    }
  };
  // After closing, the IPC channel is all that keeps the process alive: it ends once the answer is out.
  const then = () => m.op === 'close' && process.disconnect();
  answer().then(
    (value) => send({ id: m.id, value }, undefined, undefined, then),
    (err: unknown) => send({ id: m.id, error: String(err) }, undefined, undefined, then),
  );
});
send({ id: 0, value: sfu.url });
