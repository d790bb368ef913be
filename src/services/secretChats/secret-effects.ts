// The secret chats' effects over the REST API (src/contract/secret.ts) and the crypto service: registering this
// browser as a device, catching up with a group's log, committing the devices to add and remove, sending, and
// creating a chat. The wiring turns them into the actors' named effects; node tests call them with a crypto core
// in-process.
import { LIMITS } from '../../contract/limits';
import type { Message } from '../../contract/entities';
import { RequestFailure } from '../../contract/failure';
import type { ApiClient } from '../app/api';
import { isControl } from './crypto/secret-actions';
import { createIdentityEffects, type IdentityEffects } from './identity-effects';
import { type ClaimedPackage, type SecretCrypto, SecretCryptoError, type ServerAccess } from './crypto/secret-crypto';
import type {
  CatchUpResult,
  CommitResult,
  LeafUpdateResult,
  Outgoing,
  RegisterResult,
} from '../../machines/secretChats/secretChat/secretChat.protocol';

export interface SecretEffects {
  /** The identity key's effects (identity-effects.ts): this device's approval, the people's keys. */
  identity: IdentityEffects;
  /** This browser's device (registered once per sign-in; the same promise for every caller). */
  device(userId: string): Promise<RegisterResult>;
  /** The secret chats of the user, as the server lists them for this device, with their members who have no device. */
  chats(userId: string): Promise<{ conversationIds: string[]; withoutDevice: Record<string, string[]> }>;
  catchUp(where: Where & { after: number }): Promise<CatchUpResult>;
  commit(where: Where): Promise<CommitResult>;
  /** Commits an update of this device's own leaf (with a path) when one is due (crypto/leaf-updates.ts). */
  updateLeaf(where: Where): Promise<LeafUpdateResult>;
  send(where: Where & { item: Outgoing }): Promise<{ messageId: string }>;
  replenish(input: { userId: string; deviceId: string; left: number }): Promise<{ keyPackagesLeft: number }>;
  /**
   * A new secret chat with every member's devices. Members with no device at all are in it too (`withoutDevice`):
   * their first device is added when it appears.
   */
  create(input: {
    userId: string;
    memberIds: string[];
    title: string | null;
  }): Promise<{ conversationId: string; withoutDevice: string[] }>;
}

export interface Where {
  userId: string;
  conversationId: string;
  deviceId: string;
}

/** A friend without any device that could be added: the creation names them. */
export class NoDeviceError extends Error {
  constructor(readonly userIds: string[]) {
    super('Нет устройства для секретных чатов');
    this.name = 'NoDeviceError';
  }
}

/** The server's message of each secret send, by clientMessageId (the outbox delivers it: send-secret.ts). */
export const sentMessages = new Map<string, Message>();

const RECLAIM_ATTEMPTS = 5;
const RECLAIM_PAUSE_MS = 1_000;

const status = (e: unknown) => (e instanceof RequestFailure ? e.status : null);

/**
 * `access` gives the crypto worker the API's address and the current access token, so it registers the device
 * itself (crypto/register-core.ts); without it the page makes every request.
 */
export function createSecretEffects(
  api: ApiClient,
  crypto: () => SecretCrypto,
  access?: () => ServerAccess,
): SecretEffects {
  // Per user and crypto service: after a sign-out (which clears the store and ends the worker) the next sign-in is
  // another device and registers anew.
  const devices = new Map<string, { crypto: SecretCrypto; registered: Promise<RegisterResult> }>();

  async function register(userId: string): Promise<RegisterResult> {
    const c = crypto();
    // In the worker, with its own requests: the page's main thread only posts and hears one message. The identity
    // key brought by another device, or a token to renew, are the page's steps below.
    const server = access?.();
    if (server) {
      const r = await c.registerDevice(userId, server);
      if ('deviceId' in r) return r;
      if ('failed' in r) throw new RequestFailure(r.failed.status, r.failed.message);
    }
    const prepared = await c.prepareDevice(userId);
    let deviceId = prepared.deviceId;
    if (!deviceId) {
      if (!prepared.registration) throw new SecretCryptoError('failed', 'Не удалось подготовить устройство');
      // Only a device its person's identity key signed may register (docs/secret-chats.md "Identity keys").
      await identity.ensure(userId);
      const proof = await c.deviceProof(userId);
      const r = await api.call('secretRegisterDevice', { body: { keyPackages: [prepared.registration], ...proof } });
      deviceId = r.device.id;
      await c.setDeviceId(userId, deviceId);
      // The registration package names no device, so no adder accepts it: real ones follow at once, with the
      // last-resort one that lets friends add this device even when the others are used up or expired.
      const keyPackages = await c.makeKeyPackages(userId, LIMITS.keyPackagesKeep);
      const lastResort = await c.makeLastResort(userId);
      const left = await api.call('secretKeyPackages', { body: { deviceId, keyPackages, lastResort } });
      return { deviceId, keyPackagesLeft: left.keyPackagesLeft };
    }
    const state = await api.call('secretState', { query: { deviceId } });
    if (state.lastResort) return { deviceId, keyPackagesLeft: state.keyPackagesLeft };
    // Its last-resort package expired (or was never uploaded): a new one, with a fresh one-time package.
    const keyPackages = await c.makeKeyPackages(userId, 1);
    const lastResort = await c.makeLastResort(userId);
    const left = await api.call('secretKeyPackages', { body: { deviceId, keyPackages, lastResort } });
    return { deviceId, keyPackagesLeft: left.keyPackagesLeft };
  }

  /** One key package of each of these devices. */
  async function claim(devices: { userId: string; deviceId: string }[], conversationId?: string) {
    const userIds = [...new Set(devices.map((d) => d.userId))];
    const r = await api.call('secretClaim', {
      body: { userIds, deviceIds: devices.map((d) => d.deviceId), ...(conversationId ? { conversationId } : {}) },
    });
    return r.packages;
  }
  /**
   * The packages with those refused replaced by fresh ones of the same devices. A device that has just registered
   * uploads its proper packages right after: until they are there, asked again a few times, a second apart.
   */
  async function again(packages: ClaimedPackage[], refused: string[], conversationId?: string) {
    const kept = packages.filter((p) => !refused.includes(p.deviceId));
    let wanted = packages.filter((p) => refused.includes(p.deviceId));
    const fresh: ClaimedPackage[] = [];
    for (let attempt = 0; attempt < RECLAIM_ATTEMPTS && wanted.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, RECLAIM_PAUSE_MS));
      const got = await claim(wanted, conversationId);
      fresh.push(...got);
      wanted = wanted.filter((w) => !got.some((g) => g.deviceId === w.deviceId));
    }
    return [...kept, ...fresh];
  }

  const identity = createIdentityEffects(api, crypto);

  /** The chat's members and their identity keys, for the device's checks of the leaves it adds or meets. */
  async function trustFor(userId: string, conversationId: string, memberIds: string[]) {
    const c = crypto();
    await c.setMembers(userId, conversationId, memberIds);
    await identity.see(userId, memberIds, conversationId);
  }
  async function trustOf(userId: string, conversationId: string, deviceId: string) {
    const state = await api.call('secretState', { query: { deviceId } });
    const group = state.groups.find((g) => g.conversationId === conversationId);
    if (group) await trustFor(userId, conversationId, group.memberIds);
  }

  const effects: SecretEffects = {
    identity,
    device(userId) {
      const c = crypto();
      const known = devices.get(userId);
      if (known?.crypto === c) return known.registered;
      const registered = register(userId);
      devices.set(userId, { crypto: c, registered });
      // A failed registration is tried again by the next caller.
      registered.catch(() => {
        if (devices.get(userId)?.registered === registered) devices.delete(userId);
      });
      return registered;
    },
    async chats(userId) {
      const { deviceId } = await effects.device(userId);
      const state = await api.call('secretState', { query: { deviceId } });
      return {
        conversationIds: state.groups.map((g) => g.conversationId),
        withoutDevice: Object.fromEntries(
          state.groups.filter((g) => g.withoutDevice.length > 0).map((g) => [g.conversationId, g.withoutDevice]),
        ),
      };
    },
    async catchUp({ userId, conversationId, deviceId, after }) {
      const c = crypto();
      let seq = after;
      let removed = false;
      await trustOf(userId, conversationId, deviceId);
      // Commits this device could not apply: it is behind the group from the first on, so what follows until its
      // re-addition (further commits, a gap) is skipped too, and it asks to be added again.
      let skipped = 0;
      for (;;) {
        let page: Awaited<ReturnType<typeof api.call<'secretLog'>>>;
        try {
          page = await api.call('secretLog', { params: { id: conversationId }, query: { deviceId, after: seq } });
        } catch (e) {
          // Never in the group yet: its welcome comes later (a secret:log event).
          if (status(e) === 403) return { seq, epoch: await c.epoch(userId, conversationId), removed: false, skipped };
          throw e;
        }
        for (const entry of page.entries) {
          try {
            const r = await c.applyLogItem(userId, conversationId, entry);
            removed ||= r.removed;
          } catch (e) {
            // Applied already, or a commit of a group this device has not joined (before its welcome).
            // A welcome or commit bringing a device that may not join is skipped; the chat shows it.
            const code = e instanceof SecretCryptoError ? e.code : null;
            // A device refused by the identity check is shown in the chat and its commit left aside: every honest
            // member refuses it alike, so none of them is behind the others.
            if (code === 'stale' || code === 'notMember' || code === 'untrusted') {
              seq = entry.seq;
              continue;
            }
            // The worker itself failing (not the entry) is a failure of the catch-up, tried again later.
            if (!(e instanceof SecretCryptoError) || code === 'failed' || code === 'noDevice') throw e;
            // A commit that does not apply (damaged, forged, or of an epoch after one that did not): skipped, so that
            // the log goes on; the state it leaves is dropped, and the device waits for its re-addition.
            if (entry.kind === 'commit') {
              // Asked before the state goes: should the request fail, the next catch-up meets this commit again.
              // Any member's online device removes the stale leaf and adds this device again (secret:pending).
              // A 403: the device is out of the group already (the commit it could not apply was its removal).
              if (skipped === 0 && !removed)
                await api.call('secretRejoin', { body: { conversationId, deviceId } }).catch((r: unknown) => {
                  if (status(r) !== 403) throw r;
                  removed = true;
                });
              skipped++;
              await c.resetGroup(userId, conversationId);
            }
          }
          seq = entry.seq;
        }
        if (!page.hasMore || page.entries.length === 0) break;
      }
      return { seq, epoch: removed ? null : await c.epoch(userId, conversationId), removed, skipped };
    },
    async commit({ userId, conversationId, deviceId }) {
      const c = crypto();
      const state = await api.call('secretState', { query: { deviceId } });
      const group = state.groups.find((g) => g.conversationId === conversationId);
      const epoch = await c.epoch(userId, conversationId);
      const noop = { epoch, seq: 0, keyPackagesLeft: state.keyPackagesLeft };
      if (!group?.member || epoch === null) return noop;
      if (group.toAdd.length === 0 && group.toRemove.length === 0) return noop;
      await trustFor(userId, conversationId, group.memberIds);
      let packages: ClaimedPackage[] = [];
      if (group.toAdd.length > 0) packages = await claim(group.toAdd, conversationId);
      if (packages.length === 0 && group.toRemove.length === 0) return noop;
      let made = await c.commit(userId, conversationId, packages, group.toRemove);
      if (made.refused.length > 0) {
        // A device's registration package names no device and is refused: its next package is a proper one.
        await c.discardCommit(userId, conversationId);
        packages = await again(packages, made.refused, conversationId);
        made = await c.commit(userId, conversationId, packages, group.toRemove);
      }
      if (made.added.length === 0 && made.removed.length === 0) {
        await c.discardCommit(userId, conversationId);
        return noop;
      }
      try {
        const r = await api.call('secretCommit', {
          body: {
            conversationId,
            deviceId,
            epoch: made.epoch,
            commit: made.commit,
            ...(made.added.length > 0 && made.welcome ? { welcome: made.welcome } : {}),
            added: made.added,
            removed: made.removed,
          },
        });
        const confirmed = await c.confirmCommit(userId, conversationId);
        return { epoch: confirmed.epoch, seq: r.seq, keyPackagesLeft: state.keyPackagesLeft };
      } catch (e) {
        if (status(e) === 409) await c.discardCommit(userId, conversationId);
        throw e;
      }
    },
    async updateLeaf({ userId, conversationId, deviceId }) {
      const c = crypto();
      if (!(await c.leafUpdateDue(userId, conversationId))) return null;
      // Adds and removes nothing: a commit of this device's new leaf and path keys.
      const made = await c.commit(userId, conversationId, [], []);
      try {
        const r = await api.call('secretCommit', {
          body: { conversationId, deviceId, epoch: made.epoch, commit: made.commit, added: [], removed: [] },
        });
        const confirmed = await c.confirmCommit(userId, conversationId);
        return { epoch: confirmed.epoch, seq: r.seq };
      } catch (e) {
        // Taken, with the answer lost: the log brings it back and the pending state is kept then.
        if (status(e) === 409) await c.discardCommit(userId, conversationId);
        throw e;
      }
    },
    async send({ userId, conversationId, deviceId, item }) {
      const c = crypto();
      const { ciphertext, epoch, envelope } = await c.encrypt(userId, conversationId, item.envelope);
      const { message } = await api.call('secretSend', {
        body: {
          conversationId,
          deviceId,
          epoch,
          ciphertext,
          clientMessageId: item.clientMessageId,
          // An edit or a reaction: no news for the server (no unread count, preview or push).
          ...(isControl(item.envelope) ? { control: true as const } : {}),
        },
      });
      // It cannot decrypt its own ciphertext: the text is kept now.
      await c.keepSent(userId, {
        messageId: message.id,
        conversationId,
        senderUserId: userId,
        senderDeviceId: deviceId,
        epoch,
        // As sent: with its own id, naming its targets by theirs.
        envelope: envelope ?? item.envelope,
      });
      // Into the local search index (its failure never fails the send).
      await c
        .indexMessage(userId, { conversationId, messageId: message.id, createdAt: message.createdAt })
        .catch(() => undefined);
      // Written while some members had no device: held, to be sent again once their first device is in.
      if (item.holdFor?.length && item.envelope.kind === 'text')
        await c.hold(userId, conversationId, message.id, item.holdFor);
      sentMessages.set(item.clientMessageId, message);
      return { messageId: message.id };
    },
    async replenish({ userId, deviceId, left }) {
      const n = Math.min(LIMITS.keyPackagesPerUpload, Math.max(1, LIMITS.keyPackagesKeep - left));
      const keyPackages = await crypto().makeKeyPackages(userId, n);
      const r = await api.call('secretKeyPackages', { body: { deviceId, keyPackages } });
      return { keyPackagesLeft: r.keyPackagesLeft };
    },
    async create({ userId, memberIds, title }) {
      const c = crypto();
      const { deviceId } = await effects.device(userId);
      await identity.see(userId, [...memberIds, userId]);
      // The members' devices and one's own other devices, one key package each.
      const claimed = await api.call('secretClaim', { body: { userIds: [...memberIds, userId] } });
      // Members without a device are added by a commit once they sign in on a browser.
      const withoutDevice = claimed.unavailable.filter((id) => id !== userId);
      let packages = claimed.packages.filter((p) => p.deviceId !== deviceId);
      let made = await c.createGroup(userId, packages);
      if (made.refused.length > 0) {
        // The devices whose registration package came first: their next package names them.
        packages = await again(packages, made.refused);
        made = await c.createGroup(userId, packages);
      }
      const withDevice = new Set(packages.filter((p) => made.added.includes(p.deviceId)).map((p) => p.userId));
      // A member who has devices none of which could be added (every package refused) cannot be reached now.
      const refused = memberIds.filter((id) => !withDevice.has(id) && !withoutDevice.includes(id));
      if (refused.length > 0 || (made.added.length > 0 && !made.welcome)) throw new NoDeviceError(refused);
      const r = await api.call('secretCreate', {
        body: {
          deviceId,
          memberIds,
          ...(title ? { title } : {}),
          groupId: made.groupId,
          ...(made.added.length > 0 && made.welcome ? { welcome: made.welcome } : {}),
          deviceIds: made.added,
        },
      });
      await c.confirmGroup(userId, made.groupId, r.conversation.id);
      return { conversationId: r.conversation.id, withoutDevice };
    },
  };
  return effects;
}
