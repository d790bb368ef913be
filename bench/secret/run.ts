// `npm run bench:secret`: client CPU time of secret chats' MLS (ts-mls, ciphersuite 1) in Node: encrypt and
// decrypt of a 1-KB message in a two-device group, and adding or removing one device in a 50-device group.
// Medians of N runs, in milliseconds. The same steps run in Chromium under a phone's CPU in
// `BENCH_PARTS=secret npm run bench:client`.
import { measureSecret } from './measure';

const N = Number(process.env.N ?? 20);
const r = await measureSecret(N);

const f = (x: number) => x.toFixed(2);
console.log(`secret chats, ts-mls ciphersuite 1, Node ${process.version}, median of ${N}:`);
console.log(`  encrypt 1 KB: ${f(r.encryptMs)} ms; decrypt 1 KB: ${f(r.decryptMs)} ms`);
console.log(
  `  50-device group: add one device (commit + welcome): ${f(r.addMs)} ms; apply that commit on another member: ${f(r.addApplyMs)} ms; remove one device (commit): ${f(r.removeMs)} ms; update own leaf (commit with a path): ${f(r.updateMs)} ms, applied: ${f(r.updateApplyMs)} ms`,
);
console.log(
  `  identity check of one added device (signature under the identity key, against 50 leaves): ${f(r.leafCheckMs)} ms`,
);
