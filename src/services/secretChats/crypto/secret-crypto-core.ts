// The implementation of SecretCrypto (secret-crypto.ts) over the MLS engine and the store: what the crypto worker
// runs, and what node tests call in-process. Calls run one at a time (a group's state is read, changed and written
// back by each), and group states are cached in memory between calls.
import type { ClientState } from 'ts-mls/clientState.js';
import { parseEnvelope, serializeEnvelope } from './envelope';
import { createLeafUpdates, hasPath } from './leaf-updates';
import { createMessageIds, idOf } from './message-ids';
import { applyControl, isControl, shownOf, timeOfId } from './secret-actions';
import * as mls from './mls-engine';
import { createRecoveryCore } from './recovery-core';
import { createIdentityCore } from './identity-core';
import { registerInWorker } from './register-core';
import {
  checkCommitted,
  checkJoined,
  IDENTITY_CHANGED,
  leavesOf,
  peopleOf,
  type RefusedLeaf,
  refusedLeaves,
  UntrustedLeafError,
} from './identity';
import {
  type ClaimedPackage,
  GUEST_LINK_OTHER_EPOCH,
  type SecretCrypto,
  SecretCryptoError,
  type SecretErrorCode,
  type SecretPlaintext,
  type SecretRequest,
  type SecretResponse,
  type WorkerRegistration,
} from './secret-crypto';
import type { SearchIndex } from './search-index';
import type { DeviceRecord, SecretStore } from './secret-store';
import { newDevicesOf, verificationOf } from './verification';

/** The engine's and WebCrypto's failures in the service's words. */
export function toSecretError(e: unknown): SecretCryptoError {
  if (e instanceof SecretCryptoError) return e;
  if (e instanceof mls.MlsEngineError) return new SecretCryptoError(e.code, e.message);
  if (e instanceof Error && e.name === 'EnvelopeError') return new SecretCryptoError('badMessage', e.message);
  if (e instanceof Error && e.name === 'BackupError') return new SecretCryptoError('badMessage', e.message);
  return new SecretCryptoError('failed', 'Не удалось выполнить операцию шифрования');
}

/** The local search index, its module (and the stemmers) loaded on the first call that needs it. */
const defaultIndex = (store: SecretStore) => import('./search-index').then((m) => m.createSearchIndex(store));

export function createSecretCryptoCore(
  sealed: SecretStore,
  openIndex: (store: SecretStore) => Promise<SearchIndex> = defaultIndex,
  now: () => number = Date.now,
): SecretCrypto {
  // A plaintext kept while this device has a recovery key is queued for the backup.
  // An identity key restored from the backup is kept by the identity half (made just below).
  const recovery = createRecoveryCore(sealed, (userId, id) => identity.adopt(userId, id));
  const store = recovery.store;
  const identity = createIdentityCore(store);
  const ids = createMessageIds(store, now);
  const leaves = createLeafUpdates(store, now);
  let searchIndex: Promise<SearchIndex> | null = null;
  const indexOf = () => {
    searchIndex ??= openIndex(store);
    searchIndex.catch(() => {
      searchIndex = null;
    });
    return searchIndex;
  };
  /**
   * A message just kept: an edit or reaction is applied to its target (or waits for it, when the target is not read
   * yet); a text takes the edits and reactions that waited for it (and is returned as it is now).
   */
  async function settle(userId: string, m: SecretPlaintext): Promise<SecretPlaintext | null> {
    const { conversationId } = m;
    if (isControl(m.envelope) && 'targetId' in m.envelope) {
      const targetId = m.envelope.targetId;
      // By the id the control's sender named, inside the ciphertext: not by anything the server says.
      const target = await ids.find(userId, conversationId, targetId);
      if (target) {
        const changed = applyControl(target, m);
        if (changed) await store.savePlaintext(userId, changed);
      } else {
        const waiting = await store.loadPending(userId, conversationId, targetId);
        if (!waiting.some((w) => w.messageId === m.messageId))
          await store.savePending(userId, conversationId, targetId, [...waiting, m]);
      }
      return null;
    }
    const waiting = await store.loadPending(userId, conversationId, idOf(m));
    if (waiting.length === 0) return null;
    let now = m;
    for (const control of waiting) now = applyControl(now, control) ?? now;
    await store.savePlaintext(userId, now);
    await store.savePending(userId, conversationId, idOf(m), []);
    return now;
  }

  const groups = new Map<string, ClientState>();
  const pending = new Map<string, { state: ClientState; epoch: number; consumed: Uint8Array[]; path: boolean }>();
  const created = new Map<string, ClientState>();
  const gk = (userId: string, conversationId: string) => `${userId}\n${conversationId}`;

  async function device(userId: string): Promise<DeviceRecord> {
    const d = await store.loadDevice(userId);
    if (!d) throw new SecretCryptoError('noDevice', 'Это устройство ещё не подключено к секретным чатам');
    return d;
  }
  async function group(userId: string, conversationId: string): Promise<ClientState | null> {
    const k = gk(userId, conversationId);
    const cached = groups.get(k);
    if (cached) return cached;
    const bytes = await store.loadGroup(userId, conversationId);
    if (!bytes) return null;
    const state = mls.decodeState(bytes);
    groups.set(k, state);
    return state;
  }
  async function mustGroup(userId: string, conversationId: string): Promise<ClientState> {
    const s = await group(userId, conversationId);
    if (!s) throw new SecretCryptoError('notMember', 'Это устройство не состоит в секретном чате');
    return s;
  }
  async function keep(userId: string, conversationId: string, state: ClientState): Promise<void> {
    await store.saveGroup(userId, conversationId, mls.encodeState(state));
    groups.set(gk(userId, conversationId), state);
  }

  /** Keeps the «новое устройство» notices of a commit applied to `before` (each once, by epoch and device). */
  async function noteNewDevices(
    userId: string,
    conversationId: string,
    before: ClientState,
    after: ClientState,
    at: string,
  ): Promise<void> {
    const fresh = newDevicesOf(before, after, at);
    if (fresh.length === 0) return;
    const kept = await store.loadNotices(userId, conversationId);
    const seen = new Set(kept.map((n) => `${n.epoch}:${n.deviceId}`));
    await store.saveNotices(userId, conversationId, [
      ...kept,
      ...fresh.filter((n) => !seen.has(`${n.epoch}:${n.deviceId}`)),
    ]);
  }

  /** Keeps «Неподтверждённое устройство не добавлено» notices (each refused device once per chat). */
  async function noteRefused(
    userId: string,
    conversationId: string,
    refused: RefusedLeaf[],
    epoch: number,
    at: string,
  ) {
    const kept = await store.loadNotices(userId, conversationId);
    const seen = new Set(kept.filter((n) => n.refused).map((n) => `${n.userId}:${n.deviceId}`));
    const fresh = refused
      .filter((r) => !seen.has(`${r.userId}:${r.deviceId}`))
      .map((r) => ({ epoch, at, userId: r.userId, deviceId: r.deviceId, refused: true as const }));
    if (fresh.length > 0) await store.saveNotices(userId, conversationId, [...kept, ...fresh]);
  }

  /**
   * Claimed packages judged by the identity keys pinned here (and the chat's members): those that name the device
   * they were claimed for and may not join are `untrusted`; the rest go to the engine, which refuses packages naming
   * another device (a registration package), to be claimed again.
   */
  async function screen(
    userId: string,
    conversationId: string | null,
    claimed: ClaimedPackage[],
    state: ClientState | null,
    removing: readonly string[] = [],
  ) {
    const trust = await identity.trust(userId, conversationId);
    const ok: ClaimedPackage[] = [];
    const untrusted: RefusedLeaf[] = [];
    // A device removed and added again in one commit (it asked to rejoin) is compared without its stale leaf.
    const gone = new Set(removing);
    const existing = (state ? leavesOf(state) : []).filter(
      (l) => !gone.has(mls.parseIdentity(l.identity)?.deviceId ?? ''),
    );
    const accepted = [...existing];
    for (const c of claimed) {
      const leaf = mls.leafOfPackage(c.keyPackage);
      const who = leaf ? mls.parseIdentity(leaf.identity) : null;
      if (!leaf || !who || who.userId !== c.userId || who.deviceId !== c.deviceId) {
        ok.push(c);
        continue;
      }
      const [problem] = await refusedLeaves([leaf], accepted, trust);
      if (problem) untrusted.push(problem);
      else {
        ok.push(c);
        accepted.push(leaf);
      }
    }
    return { ok, untrusted };
  }

  const api: Omit<SecretCrypto, 'registerDevice'> = {
    async prepareDevice(userId) {
      const existing = await store.loadDevice(userId);
      if (existing?.deviceId) return { deviceId: existing.deviceId, registration: null };
      const keys = existing ?? (await mls.createDeviceKeys(userId));
      const [registration] = await mls.generateKeyPackages({ ...keys, deviceId: null }, 1);
      await store.saveDevice({ ...keys, keyPackages: existing?.keyPackages ?? [] });
      return { deviceId: null, registration: registration?.publicPackage ?? null };
    },
    async setDeviceId(userId, deviceId) {
      await store.saveDevice({ ...(await device(userId)), deviceId });
    },
    async makeKeyPackages(userId, n) {
      const d = await device(userId);
      if (!d.deviceId) throw new SecretCryptoError('noDevice', 'Устройство ещё не зарегистрировано');
      const made = await mls.generateKeyPackages(d, n);
      await store.saveDevice({ ...d, keyPackages: [...d.keyPackages, ...made] });
      return made.map((k) => k.publicPackage);
    },
    async makeLastResort(userId) {
      const d = await device(userId);
      if (!d.deviceId) throw new SecretCryptoError('noDevice', 'Устройство ещё не зарегистрировано');
      const [made] = await mls.generateKeyPackages(d, 1);
      if (!made) throw new SecretCryptoError('failed', 'Не удалось подготовить устройство');
      // One at a time, as on the server: the earlier one's keys go with it.
      const rest = d.keyPackages.filter((k) => !k.lastResort);
      await store.saveDevice({ ...d, keyPackages: [...rest, { ...made, lastResort: true }] });
      return made.publicPackage;
    },
    async createGroup(userId, claimed) {
      const d = await device(userId);
      if (!d.deviceId) throw new SecretCryptoError('noDevice', 'Устройство ещё не зарегистрировано');
      const [own] = await mls.generateKeyPackages(d, 1);
      if (!own) throw new SecretCryptoError('failed', 'Не удалось создать группу');
      const screened = await screen(userId, null, claimed, null);
      const out = await mls.createGroupWith(d, own, screened.ok);
      created.set(gk(userId, out.groupId), out.state);
      const refused = new Set(out.refused);
      return {
        groupId: out.groupId,
        welcome: out.welcome,
        added: screened.ok.map((c) => c.deviceId).filter((id) => !refused.has(id)),
        refused: out.refused,
        untrusted: screened.untrusted.map(({ userId: u, deviceId }) => ({ userId: u, deviceId })),
      };
    },
    async confirmGroup(userId, groupId, conversationId) {
      const state = created.get(gk(userId, groupId));
      if (!state) throw new SecretCryptoError('notMember', 'Группа не найдена');
      created.delete(gk(userId, groupId));
      await keep(userId, conversationId, state);
      await leaves.fresh(userId, conversationId);
    },
    async join(userId, conversationId, welcome) {
      const current = await group(userId, conversationId);
      if (current && current.groupActiveState.kind === 'active') return { joined: false, epoch: mls.epochOf(current) };
      const d = await device(userId);
      const joined = await mls.joinFromWelcome(d, d.keyPackages, welcome);
      if (!joined) return { joined: false, epoch: null };
      // A welcome into a group this device already holds under another chat is another chat's, replayed.
      const groupId = mls.groupIdOf(joined.state);
      for (const other of await store.groupIds(userId)) {
        if (other === conversationId) continue;
        const s = await group(userId, other);
        if (s && mls.groupIdOf(s) === groupId)
          throw new UntrustedLeafError([{ userId: '', deviceId: '', problem: 'otherGroup' }]);
      }
      await checkJoined(joined.state, await identity.trust(userId, conversationId));
      // A key package is one-time: its private keys go once used (the last-resort one's stay for its next use).
      await store.saveDevice({
        ...d,
        keyPackages: d.keyPackages.filter((k) => k.ref !== joined.used || k.lastResort),
      });
      await keep(userId, conversationId, joined.state);
      await leaves.fresh(userId, conversationId);
      return { joined: true, epoch: mls.epochOf(joined.state) };
    },
    async epoch(userId, conversationId) {
      const s = await group(userId, conversationId);
      return s && s.groupActiveState.kind === 'active' ? mls.epochOf(s) : null;
    },
    async commit(userId, conversationId, claimed, removeDeviceIds) {
      const state = await mustGroup(userId, conversationId);
      const screened = await screen(userId, conversationId, claimed, state, removeDeviceIds);
      const epoch = mls.epochOf(state);
      if (screened.untrusted.length > 0)
        await noteRefused(userId, conversationId, screened.untrusted, epoch, new Date().toISOString());
      const out = await mls.commitChanges(state, screened.ok, removeDeviceIds);
      const refused = new Set(out.refused);
      const inGroup = new Set(mls.members(state).map((m) => m.identity.deviceId));
      const added = screened.ok.map((c) => c.deviceId).filter((id) => !refused.has(id));
      const removed = removeDeviceIds.filter((id) => inGroup.has(id));
      const path = hasPath(added.length, removed.length);
      pending.set(gk(userId, conversationId), { state: out.state, epoch, consumed: out.consumed, path });
      return {
        epoch,
        commit: out.commit,
        welcome: out.welcome,
        added,
        removed,
        refused: out.refused,
        untrusted: screened.untrusted.map(({ userId: u, deviceId }) => ({ userId: u, deviceId })),
      };
    },
    async confirmCommit(userId, conversationId) {
      const k = gk(userId, conversationId);
      const p = pending.get(k);
      if (!p) throw new SecretCryptoError('stale', 'Нет коммита, ожидающего подтверждения');
      pending.delete(k);
      const before = await group(userId, conversationId);
      await keep(userId, conversationId, p.state);
      mls.forget(p.consumed);
      await leaves.committed(userId, conversationId, p.path);
      if (before) await noteNewDevices(userId, conversationId, before, p.state, new Date().toISOString());
      return { epoch: mls.epochOf(p.state) };
    },
    async leafUpdateDue(userId, conversationId) {
      const s = await group(userId, conversationId);
      return s?.groupActiveState.kind === 'active' && (await leaves.due(userId, conversationId));
    },
    async discardCommit(userId, conversationId) {
      pending.delete(gk(userId, conversationId));
    },
    async resetGroup(userId, conversationId) {
      const k = gk(userId, conversationId);
      pending.delete(k);
      groups.delete(k);
      await store.deleteGroup(userId, conversationId);
    },
    async applyLogItem(userId, conversationId, item) {
      if (item.kind === 'welcome') {
        const r = await api.join(userId, conversationId, item.body).catch(async (e) => {
          if (e instanceof UntrustedLeafError)
            await noteRefused(
              userId,
              conversationId,
              e.refused,
              item.epoch + 1,
              item.createdAt ?? new Date().toISOString(),
            );
          throw e;
        });
        const s = await group(userId, conversationId);
        return { epoch: r.epoch ?? (s ? mls.epochOf(s) : item.epoch), removed: false };
      }
      const state = await mustGroup(userId, conversationId);
      const k = gk(userId, conversationId);
      const d = await device(userId);
      const mine = pending.get(k);
      if (item.epoch < mls.epochOf(state)) return { epoch: mls.epochOf(state), removed: false }; // applied already
      if (item.deviceId === d.deviceId && mine && mine.epoch === item.epoch) {
        // This device's own commit, taken by the server (its answer may have been lost).
        pending.delete(k);
        await keep(userId, conversationId, mine.state);
        mls.forget(mine.consumed);
        await leaves.committed(userId, conversationId, mine.path);
        await noteNewDevices(userId, conversationId, state, mine.state, item.createdAt ?? new Date().toISOString());
        return { epoch: mls.epochOf(mine.state), removed: false };
      }
      pending.delete(k); // a commit of another device won the epoch: ours, if any, is stale
      const r = await mls.processCommit(state, item.body).catch((e: unknown) => {
        // ts-mls refusing it (a bad signature, a damaged or forged body): the commit's fault, not the worker's.
        throw e instanceof mls.MlsEngineError
          ? e
          : new SecretCryptoError('badMessage', 'Изменение группы не применяется');
      });
      // Every leaf the commit brought must be a member's, signed by their identity key, and the only one of its kind.
      try {
        if (!r.removed) await checkCommitted(state, r.state, await identity.trust(userId, conversationId));
      } catch (e) {
        if (e instanceof UntrustedLeafError)
          await noteRefused(
            userId,
            conversationId,
            e.refused,
            item.epoch + 1,
            item.createdAt ?? new Date().toISOString(),
          );
        throw e;
      }
      await keep(userId, conversationId, r.state);
      if (!r.removed) await leaves.applied(userId, conversationId, state, r.state);
      await noteNewDevices(userId, conversationId, state, r.state, item.createdAt ?? new Date().toISOString());
      return { epoch: mls.epochOf(r.state), removed: r.removed };
    },
    async encrypt(userId, conversationId, envelope) {
      const state = await mustGroup(userId, conversationId);
      // Sending pauses while a member's identity key changed and this device has not accepted the new one.
      const changed = new Set(await identity.api.identityChanges(userId));
      if (peopleOf(state).some((id) => changed.has(id))) throw new SecretCryptoError('untrusted', IDENTITY_CHANGED);
      const wire = await ids.toWire(userId, conversationId, envelope);
      const r = await mls.encryptMessage(state, serializeEnvelope(wire));
      await keep(userId, conversationId, r.state);
      return { ciphertext: r.ciphertext, epoch: mls.epochOf(state), envelope: wire };
    },
    async keepSent(userId, plaintext) {
      const kept = { ...plaintext, envelope: parseEnvelope(JSON.stringify(plaintext.envelope)) };
      await store.savePlaintext(userId, kept);
      await settle(userId, kept);
    },
    async decrypt(userId, conversationId, messageId, ciphertext) {
      const kept = await store.loadPlaintext(userId, conversationId, messageId);
      if (kept) return ids.toView(userId, conversationId, kept);
      const state = await mustGroup(userId, conversationId);
      const r = await mls.decryptMessage(state, ciphertext);
      // The state is kept before the envelope is judged: the key is spent either way.
      await keep(userId, conversationId, r.state);
      const plaintext: SecretPlaintext = {
        messageId,
        conversationId,
        senderUserId: r.sender.userId,
        senderDeviceId: r.sender.deviceId,
        epoch: r.epoch,
        envelope: parseEnvelope(r.payload),
      };
      const e = plaintext.envelope;
      if (e.id && e.kind === 'text') {
        // One sender-chosen id, one message: the same text again under another server id is a replay.
        const known = await store.messageIdOf(userId, conversationId, e.id);
        if (known && known !== messageId)
          throw new SecretCryptoError('badMessage', 'Сообщение повторяет уже полученное');
      }
      await store.savePlaintext(userId, plaintext);
      if (e.kind === 'copy') {
        // A message sent before this device joined, sent again by its author's device: kept as the target's text
        // when this device could not read the target (never over one it read).
        if (await store.loadPlaintext(userId, conversationId, e.targetId)) return plaintext;
        const target: SecretPlaintext = {
          ...plaintext,
          messageId: e.targetId,
          envelope: {
            ...(e.v === 2 && e.id ? { v: 2, id: e.id } : { v: 1 }),
            kind: 'text',
            text: e.text,
            ...(e.replyToId ? { replyToId: e.replyToId } : {}),
            ...(e.attachments ? { attachments: e.attachments } : {}),
          },
        };
        await store.savePlaintext(userId, target);
        await settle(userId, target);
        return plaintext;
      }
      return ids.toView(userId, conversationId, (await settle(userId, plaintext)) ?? plaintext);
    },
    async plaintexts(userId, conversationId) {
      const out: SecretPlaintext[] = [];
      for (const p of await store.loadPlaintexts(userId, conversationId))
        out.push(await ids.toView(userId, conversationId, p));
      return out;
    },
    async forget(userId, conversationId, messageId) {
      await store.deletePlaintext(userId, conversationId, messageId);
      // A deleted message leaves the local search index too.
      await (await indexOf()).remove(userId, messageId);
    },
    async fingerprint(userId, conversationId) {
      return mls.fingerprint(await mustGroup(userId, conversationId));
    },
    async verification(userId, conversationId) {
      const d = await device(userId);
      return verificationOf(await mustGroup(userId, conversationId), d.deviceId);
    },
    deviceNotices: (userId, conversationId) => store.loadNotices(userId, conversationId),
    async hold(userId, conversationId, messageId, waitFor) {
      if (waitFor.length === 0) return;
      const held = await store.loadHeld(userId, conversationId);
      if (held.some((h) => h.messageId === messageId)) return;
      await store.saveHeld(userId, conversationId, [...held, { messageId, waitFor: [...waitFor] }]);
    },
    async release(userId, conversationId) {
      const held = await store.loadHeld(userId, conversationId);
      if (held.length === 0) return [];
      const state = await group(userId, conversationId);
      if (state?.groupActiveState.kind !== 'active') return [];
      const present = new Set(mls.members(state).map((m) => m.identity.userId));
      const out: { messageId: string; envelope: SecretPlaintext['envelope'] }[] = [];
      const left: typeof held = [];
      for (const h of held) {
        const waitFor = h.waitFor.filter((u) => !present.has(u));
        if (waitFor.length < h.waitFor.length) {
          const kept = await store.loadPlaintext(userId, conversationId, h.messageId);
          // Deleted since (or never a text): nothing to send again.
          if (kept?.envelope.kind === 'text') {
            const e = kept.envelope;
            out.push({
              messageId: h.messageId,
              envelope: {
                v: 1,
                kind: 'copy',
                targetId: h.messageId,
                text: shownOf(kept).text,
                ...(e.replyToId ? { replyToId: e.replyToId } : {}),
                ...(e.attachments ? { attachments: e.attachments } : {}),
              },
            });
          }
        }
        if (waitFor.length > 0) left.push({ messageId: h.messageId, waitFor });
      }
      await store.saveHeld(userId, conversationId, left);
      // Message ids are UUIDv7: in the order they were sent.
      return out.sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0));
    },
    async callKey(userId, conversationId) {
      const s = await mustGroup(userId, conversationId);
      return { epoch: mls.epochOf(s), key: await mls.callKey(s) };
    },
    async guestLinkSecret(userId, conversationId, code, epoch) {
      const s = await mustGroup(userId, conversationId);
      if (mls.epochOf(s) !== epoch) throw new SecretCryptoError('stale', GUEST_LINK_OTHER_EPOCH);
      return mls.guestLinkSecret(s, code);
    },
    async oweLeafUpdate(userId, conversationId) {
      await leaves.owe(userId, conversationId);
    },
    async indexMessage(userId, { conversationId, messageId, createdAt }) {
      const kept = await store.loadPlaintext(userId, conversationId, messageId);
      if (!kept) return;
      const idx = await indexOf();
      // A text as it reads now (edits applied by settle); an edit re-indexes its target, if this device has it.
      const e = kept.envelope;
      const target =
        e.kind === 'text'
          ? kept
          : e.kind === 'edit'
            ? await ids.find(userId, conversationId, e.targetId)
            : e.kind === 'copy'
              ? await store.loadPlaintext(userId, conversationId, e.targetId)
              : null;
      if (target?.envelope.kind !== 'text') return;
      const known = await idx.get(userId, target.messageId);
      const shown = shownOf(target);
      if (known && known.text === shown.text) return;
      await idx.put(userId, {
        messageId: target.messageId,
        conversationId,
        senderId: target.senderUserId,
        // The target's time: as indexed before, else this call's (a text), else read from its UUIDv7 id.
        createdAt: known?.createdAt ?? (target === kept ? createdAt : (timeOfId(target.messageId) ?? createdAt)),
        editedAt: shown.edited,
        text: shown.text,
        files: (target.envelope.attachments ?? []).map((a) => a.name),
      });
    },
    async unindexMessage(userId, messageId) {
      await (await indexOf()).remove(userId, messageId);
    },
    async searchLocal(userId, query) {
      return (await indexOf()).search(userId, query);
    },
    async clear(userId) {
      for (const m of [groups, pending, created])
        for (const k of [...m.keys()]) if (k.startsWith(`${userId}\n`)) m.delete(k);
      await store.clear(userId);
      await (await indexOf()).clear(userId);
    },
    ...recovery.api,
    ...identity.api,
  };

  // One call at a time, in the order they came.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = Object.fromEntries(
    Object.entries(api).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        const run = queue
          .then(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args))
          .catch((e) => {
            throw toSecretError(e);
          });
        queue = run.catch(() => undefined);
        return run;
      },
    ]),
  );
  const core = serial as unknown as SecretCrypto;
  // Its steps queue one by one like any call, but not the whole: other calls run while it waits for the server.
  // One registration at a time per person: the background registration and the device actor's may overlap, and
  // two would register this browser twice.
  const registering = new Map<string, Promise<WorkerRegistration>>();
  core.registerDevice = (userId, server) => {
    const known = registering.get(userId);
    if (known) return known;
    const run = registerInWorker(core, userId, server).finally(() => registering.delete(userId));
    registering.set(userId, run);
    return run;
  };
  return core;
}

/** Answers requests arriving on a port (the worker's global scope) with a core's results. */
export function serveSecretCrypto(
  core: SecretCrypto,
  port: {
    addEventListener(t: 'message', l: (e: { data: SecretRequest }) => void): void;
    postMessage(r: SecretResponse): void;
  },
): void {
  port.addEventListener('message', ({ data }) => {
    const fn = core[data.method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (!fn) {
      port.postMessage({ id: data.id, ok: false, code: 'failed', message: 'Неизвестная операция шифрования' });
      return;
    }
    fn(...data.args).then(
      (value) => port.postMessage({ id: data.id, ok: true, value }),
      (e) => {
        const err = toSecretError(e);
        port.postMessage({ id: data.id, ok: false, code: err.code satisfies SecretErrorCode, message: err.message });
      },
    );
  });
}
