// The identity key in the recovery backup (docs/secret-chats.md "The recovery key", "Identity keys"), against the
// real clients' code: the crypto core the worker runs (real ts-mls, WebCrypto, IndexedDB through fake-indexeddb)
// over a real port, and the recovery and identity effects over a delivery service kept here, which stores the backup
// as opaque chunks — honestly, or swapping what it hands back. A new browser that enters the recovery key gets the
// person's identity key, signs itself with it without any old device, and every member's device admits it; a backup
// the server swapped is refused (it opens only under the recovery key) and the dialog says so.
import 'fake-indexeddb/auto';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/services/app/api';
import { verifyDevice } from '../../src/services/secretChats/crypto/identity';
import { fromBase64 } from '../../src/services/secretChats/crypto/mls-engine';
import type { BackupChunkItem } from '../../src/services/secretChats/crypto/recovery-api';
import { BACKUP_IDENTITY_BROKEN, BACKUP_IDENTITY_OTHER } from '../../src/services/secretChats/crypto/recovery';
import {
  type PortLike,
  type SecretCrypto,
  secretCryptoOverPort,
} from '../../src/services/secretChats/crypto/secret-crypto';
import { createSecretCryptoCore, serveSecretCrypto } from '../../src/services/secretChats/crypto/secret-crypto-core';
import { createSecretStore, indexedDbBackend } from '../../src/services/secretChats/crypto/secret-store';
import { createIdentityEffects } from '../../src/services/secretChats/identity-effects';
import { createRecoveryEffects } from '../../src/services/secretChats/recovery-effects';

let browsers = 0;
function browser(): SecretCrypto {
  const core = createSecretCryptoCore(createSecretStore(indexedDbBackend(`malicious-recovery-id-${++browsers}`)));
  const { port1, port2 } = new MessageChannel();
  serveSecretCrypto(core, {
    addEventListener: (_t, l) => port2.on('message', (data) => l({ data })),
    postMessage: (m) => port2.postMessage(m),
  });
  return secretCryptoOverPort({
    addEventListener: (_t, l) => port1.on('message', (data) => l({ data })),
    postMessage: (m) => port1.postMessage(m),
  } satisfies PortLike);
}

interface Backup {
  version: number;
  salt: string;
  iterations: number;
  check: string;
  chunks: BackupChunkItem[];
}

/**
 * The delivery service's part these effects use, per person: identity keys, approvals (never answered here) and the
 * backup. `lie` rewrites what it hands back.
 */
function deliveryService() {
  const identities = new Map<string, string>();
  const backups = new Map<string, Backup>();
  let seq = 0;
  const declined = new Set<string>();
  const lie: { chunks?: (userId: string, chunks: BackupChunkItem[]) => BackupChunkItem[]; identity?: string } = {};
  const as = (userId: string): ApiClient =>
    ({
      async call(route: string, opts: { body?: Record<string, unknown>; query?: Record<string, unknown> } = {}) {
        const b = opts.body ?? {};
        switch (route) {
          case 'secretIdentities': {
            const ids = String(opts.query?.userIds).split(',');
            return {
              identities: ids
                .filter((u) => identities.has(u))
                .map((u) => ({ userId: u, publicKey: lie.identity ?? identities.get(u), version: 1 })),
            };
          }
          case 'secretSetIdentity':
            if (!identities.has(userId)) identities.set(userId, b.publicKey as string);
            return { identity: { userId, publicKey: identities.get(userId), version: 1 } };
          case 'secretApprovalRequest':
            return { approval: { id: `ap-${userId}` } };
          case 'secretApproval':
            return {
              approval: { id: `ap-${userId}`, signature: null, sealed: null, declined: declined.has(userId) },
            };
          case 'secretBackupKey': {
            const backup = {
              version: (backups.get(userId)?.version ?? 0) + 1,
              salt: b.salt as string,
              iterations: b.iterations as number,
              check: b.check as string,
              chunks: [],
            };
            backups.set(userId, backup);
            return { backup: { ...backup, createdAt: new Date(0).toISOString() } };
          }
          case 'secretBackup': {
            const backup = backups.get(userId);
            return { backup: backup ? { ...backup, createdAt: new Date(0).toISOString() } : null };
          }
          case 'secretBackupUpload': {
            const backup = backups.get(userId);
            if (!backup) throw new Error('no backup');
            backup.chunks.push({
              seq: ++seq,
              version: b.version as number,
              conversationId: (b.conversationId as string | undefined) ?? null,
              entries: b.entries as string,
            });
            return { ok: true };
          }
          case 'secretBackupChunks': {
            const chunks = backups.get(userId)?.chunks ?? [];
            return { chunks: lie.chunks ? lie.chunks(userId, chunks) : chunks, hasMore: false };
          }
          default:
            throw new Error(`unexpected ${route}`);
        }
      },
    }) as unknown as ApiClient;
  return { as, identities, backups, lie, declined };
}

/** A person's first browser, holding their identity key, with a recovery key set up (its phrase returned). */
async function firstBrowser(ds: ReturnType<typeof deliveryService>, userId: string) {
  const c = browser();
  await c.prepareDevice(userId);
  await createIdentityEffects(ds.as(userId), () => c).ensure(userId);
  await c.deviceProof(userId);
  const recovery = createRecoveryEffects(ds.as(userId), () => c);
  const made = await recovery.generate(userId);
  await recovery.confirm({ userId, made });
  return { c, phrase: made.phrase, publicKey: (await c.identityStatus(userId)).publicKey as string };
}

/** A new browser of the person: prepared, waiting for an approval that never comes. */
async function newBrowser(ds: ReturnType<typeof deliveryService>, userId: string) {
  const c = browser();
  await c.prepareDevice(userId);
  // The poll's pause ends only when the test says (`poll`): no timer runs.
  const pauses: (() => void)[] = [];
  const identity = createIdentityEffects(
    ds.as(userId),
    () => c,
    () => new Promise<void>((r) => pauses.push(r)),
  );
  const poll = () => {
    for (const r of pauses.splice(0)) r();
  };
  let joined = false;
  const ensured = identity.ensure(userId).then(() => {
    joined = true;
  });
  return { c, identity, poll, ensured, joined: () => joined, recovery: createRecoveryEffects(ds.as(userId), () => c) };
}

describe('the identity key in the recovery backup', () => {
  it('a new browser that enters the recovery key keeps the identity, signs itself, and members admit it', async () => {
    const ds = deliveryService();
    const boris = await firstBrowser(ds, 'boris');
    // The backup holds one chunk of no conversation: the identity key, sealed.
    const backup = ds.backups.get('boris') as Backup;
    expect(backup.chunks.filter((c) => c.conversationId === null)).toHaveLength(1);
    expect(backup.chunks[0]?.entries).not.toContain(boris.publicKey);

    // Анна met Борис before; her pin of his key is what her device judges his devices by.
    const anna = await firstBrowser(ds, 'anna');
    await anna.c.identitiesSeen('anna', [
      { userId: 'anna', publicKey: anna.publicKey, version: 1 },
      { userId: 'boris', publicKey: boris.publicKey, version: 1 },
    ]);
    await boris.c.identitiesSeen('boris', [{ userId: 'anna', publicKey: anna.publicKey, version: 1 }]);
    const before = await anna.c.safetyNumber('anna', 'boris');

    const b2 = await newBrowser(ds, 'boris');
    await vi.waitFor(() => expect(b2.identity.pending()).not.toBeNull());
    expect(b2.joined()).toBe(false);
    await b2.recovery.restore({ userId: 'boris', phrase: boris.phrase });
    // The next poll finds the identity key held: no approval needed.
    b2.poll();
    await b2.ensured;
    expect(b2.joined()).toBe(true);
    expect((await b2.c.identityStatus('boris')).publicKey).toBe(boris.publicKey);

    // It signs itself: the proof registration sends verifies under the person's identity key.
    const proof = await b2.c.deviceProof('boris');
    expect(
      await verifyDevice(
        fromBase64(boris.publicKey),
        'boris',
        fromBase64(proof.signatureKey),
        fromBase64(proof.identitySignature),
      ),
    ).toBe(true);

    // Анна's device adds it: its key package is not refused, and the safety number is the one she had.
    await b2.c.setDeviceId('boris', 'b2');
    const [pkg] = await b2.c.makeKeyPackages('boris', 1);
    await anna.c.setDeviceId('anna', 'a1');
    const made = await anna.c.createGroup('anna', [{ userId: 'boris', deviceId: 'b2', keyPackage: pkg as string }]);
    expect(made.added).toEqual(['b2']);
    await anna.c.confirmGroup('anna', made.groupId, 'c1');
    // The new browser meets Анна as the identity effects would before it catches up.
    await b2.c.identitiesSeen('boris', [{ userId: 'anna', publicKey: anna.publicKey, version: 1 }]);
    expect(
      await b2.c.applyLogItem('boris', 'c1', {
        seq: 1,
        kind: 'welcome',
        epoch: 0,
        deviceId: 'a1',
        body: made.welcome as string,
      }),
    ).toEqual({
      epoch: 1,
      removed: false,
    });
    expect(await anna.c.safetyNumber('anna', 'boris')).toEqual(before);

    // The new browser backs up too, and uploads no second copy of the same identity key.
    await b2.recovery.sync('boris');
    expect(backup.chunks.filter((c) => c.conversationId === null)).toHaveLength(1);
  }, 60_000);

  it('a backup the server swapped: another person’s identity chunk, or a changed byte, is refused and said', async () => {
    const ds = deliveryService();
    const boris = await firstBrowser(ds, 'boris');
    await firstBrowser(ds, 'anna');
    const annas = (ds.backups.get('anna') as Backup).chunks.find((c) => c.conversationId === null) as BackupChunkItem;

    for (const swap of [
      (chunks: BackupChunkItem[]) => chunks.map((c) => (c.conversationId === null ? { ...annas, seq: c.seq } : c)),
      (chunks: BackupChunkItem[]) =>
        chunks.map((c) => {
          if (c.conversationId !== null) return c;
          const bytes = Buffer.from(c.entries, 'base64');
          bytes[20] = (bytes[20] as number) ^ 1;
          return { ...c, entries: bytes.toString('base64') };
        }),
      // An extra chunk of no conversation, newer, not sealed by the key: refused too, not skipped.
      (chunks: BackupChunkItem[]) => [...chunks, { ...annas, seq: 999 }],
    ]) {
      ds.lie.chunks = (_u, chunks) => swap(chunks);
      const b2 = await newBrowser(ds, 'boris');
      await expect(b2.recovery.restore({ userId: 'boris', phrase: boris.phrase })).rejects.toThrow(
        BACKUP_IDENTITY_BROKEN,
      );
      // Nothing changed: no identity key here, still waiting for an approval, no backup key kept.
      expect((await b2.c.identityStatus('boris')).publicKey).toBeNull();
      b2.poll();
      expect(b2.joined()).toBe(false);
      expect(await b2.c.recoveryStatus('boris')).toBeNull();
    }
  }, 60_000);

  it('a server that lists its own identity key for the person: the backup’s key is not taken for it', async () => {
    const ds = deliveryService();
    const boris = await firstBrowser(ds, 'boris');
    const other = await firstBrowser(ds, 'mallory');
    ds.lie.identity = other.publicKey;
    const b2 = await newBrowser(ds, 'boris');
    await expect(b2.recovery.restore({ userId: 'boris', phrase: boris.phrase })).rejects.toThrow(BACKUP_IDENTITY_OTHER);
    expect((await b2.c.identityStatus('boris')).publicKey).toBeNull();
    expect(b2.joined()).toBe(false);
  }, 60_000);

  it('a request declined on the old device: the new browser says so, and the recovery key still lets it in', async () => {
    const ds = deliveryService();
    const boris = await firstBrowser(ds, 'boris');
    const b2 = await newBrowser(ds, 'boris');
    await vi.waitFor(() => expect(b2.identity.pending()).not.toBeNull());
    ds.declined.add('boris');
    b2.poll();
    await vi.waitFor(() => expect(b2.identity.pending()?.declined).toBe(true));
    expect(b2.joined()).toBe(false);
    await b2.recovery.restore({ userId: 'boris', phrase: boris.phrase });
    b2.poll();
    await b2.ensured;
    expect((await b2.c.identityStatus('boris')).publicKey).toBe(boris.publicKey);
    expect(b2.identity.pending()).toBeNull();
  }, 60_000);
});
