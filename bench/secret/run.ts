// `npm run bench:secret`: client CPU time of secret chats' MLS (ts-mls, ciphersuite 1) in Node: encrypt and
// decrypt of a 1-KB message in a two-device group, and adding or removing one device in a 50-device group.
// Medians of N runs, in milliseconds.
import {
  type ClaimedKeyPackage,
  commitChanges,
  createDeviceKeys,
  createGroupWith,
  decryptMessage,
  encryptMessage,
  generateKeyPackages,
  joinFromWelcome,
  processCommit,
} from '../../src/features/secretChats/crypto/mls-engine';

const N = Number(process.env.N ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function device(userId: string, deviceId: string, n = 1) {
  const keys = { ...(await createDeviceKeys(userId)), deviceId };
  return { keys, packages: await generateKeyPackages(keys, n) };
}
const claim = (d: Awaited<ReturnType<typeof device>>, i = 0): ClaimedKeyPackage => ({
  userId: d.keys.userId,
  deviceId: d.keys.deviceId,
  keyPackage: d.packages[i]!.publicPackage,
});

const a = await device('a', 'a1', 1);
const b = await device('b', 'b1', 1);
const pair = await createGroupWith(a.keys, a.packages[0]!, [claim(b)]);
let sa = pair.state;
let sb = (await joinFromWelcome(b.keys, b.packages, pair.welcome!))!.state;
const kb = new Uint8Array(1024).fill(0x41);
const enc: number[] = [];
const dec: number[] = [];
for (let i = 0; i < N; i++) {
  let t = performance.now();
  const m = await encryptMessage(sa, kb);
  enc.push(performance.now() - t);
  sa = m.state;
  t = performance.now();
  const r = await decryptMessage(sb, m.ciphertext);
  dec.push(performance.now() - t);
  sb = r.state;
}

// 50 devices: the creator and 49 others; a 51st is added and removed each round.
const others = await Promise.all(Array.from({ length: 49 }, (_, i) => device(`u${i}`, `d${i}`)));
const extra = await device('x', 'x1', N);
const big = await createGroupWith(
  a.keys,
  (await generateKeyPackages(a.keys, 1))[0]!,
  others.map((o) => claim(o)),
);
let sBig = big.state;
let sPeer = (await joinFromWelcome(others[0]!.keys, others[0]!.packages, big.welcome!))!.state;
const add: number[] = [];
const addApply: number[] = [];
const remove: number[] = [];
for (let i = 0; i < N; i++) {
  let t = performance.now();
  const added = await commitChanges(sBig, [claim(extra, i)], []);
  add.push(performance.now() - t);
  sBig = added.state;
  t = performance.now();
  sPeer = (await processCommit(sPeer, added.commit)).state;
  addApply.push(performance.now() - t);
  t = performance.now();
  const removed = await commitChanges(sBig, [], ['x1']);
  remove.push(performance.now() - t);
  sBig = removed.state;
  sPeer = (await processCommit(sPeer, removed.commit)).state;
}

const f = (x: number) => x.toFixed(2);
console.log(`secret chats, ts-mls ciphersuite 1, Node ${process.version}, median of ${N}:`);
console.log(`  encrypt 1 KB: ${f(median(enc))} ms; decrypt 1 KB: ${f(median(dec))} ms`);
console.log(
  `  50-device group: add one device (commit + welcome): ${f(median(add))} ms; apply that commit on another member: ${f(median(addApply))} ms; remove one device (commit): ${f(median(remove))} ms`,
);
