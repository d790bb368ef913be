import { fork } from 'node:child_process';
import { AccessToken } from 'livekit-server-sdk';
import { LkClient, startMedia } from './lk-client';
const child = fork('/work/wt-cap/bench/sfu-process.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_API_KEY: 'APIx', BENCH_API_SECRET: 'secretsecretsecretsecretsecret12', BENCH_BANDWIDTH: 'on' } });
const url = await new Promise<string>((r) => child.once('message', (m: any) => r(m.url)));
const tok = async (id: string) => { const at = new AccessToken('APIx', 'secretsecretsecretsecretsecret12', { identity: id }); at.addGrant({ room: 'b', roomJoin: true, canPublish: true, canSubscribe: true }); return at.toJwt(); };
const pubs: LkClient[] = [];
for (let i = 0; i < 4; i++) pubs.push(new LkClient('p' + i));
await Promise.all(pubs.map(async (p) => p.connect(url, await tok(p.identity), false)));
for (const p of pubs) await p.publish();
console.log('published');
const stop = startMedia(pubs);
const stats = () => new Promise<any>((r) => { child.once('message', (m: any) => r(m.stats)); child.send({ type: 'stats' }); });
const subs: LkClient[] = [];
let last = await stats(); let lastSent = pubs.map((p) => ({ ...p.sent }));
for (let t = 0; t < 12; t++) {
  if (t % 5 === 0 && subs.length < 6) { const s = new LkClient('s' + subs.length); await s.connect(url, await tok(s.identity), true); subs.push(s); }
  await new Promise((r) => setTimeout(r, 1000));
  const st = await stats();
  console.log(t, 'subs', subs.length, 'in', st.packetsIn - last.packetsIn, 'out', st.packetsOut - last.packetsOut, 'participants', st.participants, 'sent', pubs.map((p, i) => p.sent.f - (lastSent[i]?.f ?? 0)).join(','), 'pcs', pubs.map((p) => p.pub.connectionState).join(','), (await new Promise<any>((r) => { child.once('message', (m: any) => r(m)); child.send({ type: 'tracks' }); })).tracks);
  last = st; lastSent = pubs.map((p) => ({ ...p.sent }));
}
stop(); for (const c of [...pubs, ...subs]) await c.close(); child.send({ type: 'stop' }); process.exit(0);
