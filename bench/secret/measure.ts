// The steps `npm run bench:secret` (Node) and the `secret` part of `npm run bench:client` (Chromium) both time, so
// the two runtimes measure the same code: the engine of src/services/secretChats/crypto/mls-engine.ts (ts-mls,
// ciphersuite 1). Medians of n runs, in milliseconds of performance.now().
import {
  type ClaimedKeyPackage,
  commitChanges,
  createDeviceKeys,
  createGroupWith,
  decryptMessage,
  encryptMessage,
  generateKeyPackages,
  joinFromWelcome,
  leafOfPackage,
  processCommit,
} from '../../src/services/secretChats/crypto/mls-engine';
import {
  createIdentityKeys,
  leavesOf,
  refusedLeaves,
  signDevice,
} from '../../src/services/secretChats/crypto/identity';

export interface SecretFigures {
  n: number;
  /** A 1-KB message in a two-device group. */
  encryptMs: number;
  decryptMs: number;
  /** A 50-device group: commit adding one device (with its welcome), that commit applied on another member. */
  addMs: number;
  addApplyMs: number;
  /** The same group: commit removing that device. */
  removeMs: number;
  /**
   * What the identity check adds per added device (crypto/identity.ts, docs/secret-chats.md "Identity keys"): its
   * credential's signature verified under its person's identity key, and its identity and key compared with the 50
   * leaves of the group (the package's decoding is shared with the commit).
   */
  leafCheckMs: number;
  /** The same group: a member's update of its own leaf (an empty commit with a path), and that applied. */
  updateMs: number;
  updateApplyMs: number;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function device(userId: string, deviceId: string, n = 1) {
  const keys = { ...(await createDeviceKeys(userId)), deviceId };
  return { keys, packages: await generateKeyPackages(keys, n) };
}
const claim = (d: Awaited<ReturnType<typeof device>>, i = 0): ClaimedKeyPackage => ({
  userId: d.keys.userId,
  deviceId: d.keys.deviceId,
  keyPackage: d.packages[i]!.publicPackage,
});

export async function measureSecret(n: number): Promise<SecretFigures> {
  const a = await device('a', 'a1', 1);
  const b = await device('b', 'b1', 1);
  const pair = await createGroupWith(a.keys, a.packages[0]!, [claim(b)]);
  let sa = pair.state;
  let sb = (await joinFromWelcome(b.keys, b.packages, pair.welcome!))!.state;
  const kb = new Uint8Array(1024).fill(0x41);
  const enc: number[] = [];
  const dec: number[] = [];
  for (let i = 0; i < n; i++) {
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
  const extra = await device('x', 'x1', n);
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
  const update: number[] = [];
  const updateApply: number[] = [];
  for (let i = 0; i < n; i++) {
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
    t = performance.now();
    const updated = await commitChanges(sBig, [], []);
    update.push(performance.now() - t);
    sBig = updated.state;
    t = performance.now();
    sPeer = (await processCommit(sPeer, updated.commit)).state;
    updateApply.push(performance.now() - t);
  }
  // The identity check of the device added each round, against the 50 leaves of the group.
  const identity = await createIdentityKeys();
  const signed = { ...(await createDeviceKeys('y')), deviceId: 'y1' };
  signed.identitySignature = await signDevice(identity, 'y', signed.signaturePublicKey);
  const signedPackages = await generateKeyPackages(signed, n);
  const trust = { identities: new Map([['y', identity.publicKey]]), memberIds: new Set(['y']) };
  const existing = leavesOf(sBig);
  const check: number[] = [];
  for (let i = 0; i < n; i++) {
    // Decoding the package is the commit's own work (the engine takes the decoded package from the check).
    const leaf = leafOfPackage(signedPackages[i]!.publicPackage);
    const t = performance.now();
    const refused = leaf ? await refusedLeaves([leaf], existing, trust) : null;
    check.push(performance.now() - t);
    if (!leaf || refused?.length) throw new Error('a signed device was refused');
  }
  return {
    n,
    leafCheckMs: median(check),
    encryptMs: median(enc),
    decryptMs: median(dec),
    addMs: median(add),
    addApplyMs: median(addApply),
    removeMs: median(remove),
    updateMs: median(update),
    updateApplyMs: median(updateApply),
  };
}

/**
 * Baseline: one WebCrypto AES-128-GCM encryption of 1 KB (the cipher MLS wraps each message in), median of n; each
 * sample times a batch of 100, as one takes less than a browser's timer resolution.
 */
export async function measureAesGcm(n: number): Promise<number> {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt']);
  const kb = new Uint8Array(1024).fill(0x41);
  const ivs = Array.from({ length: 100 }, () => crypto.getRandomValues(new Uint8Array(12)));
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    for (const iv of ivs) await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, kb);
    times.push((performance.now() - t) / ivs.length);
  }
  return median(times);
}
