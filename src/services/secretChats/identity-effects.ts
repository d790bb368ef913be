// Identity keys over the REST API (docs/secret-chats.md "Identity keys"): the person's identity key made on their
// first device, or brought to a new one by an old device's approval; and the identity keys of the people met, pinned
// by the crypto service the first time it sees each.
import { RequestFailure } from '../../contract/failure';
import type { ApiClient } from '../app/api';
import { approvalAsked } from './approval-asked';
import { type SecretCrypto, SecretCryptoError } from './crypto/secret-crypto';

/** How often a new device asks whether its request was answered (the answer also comes as `secret:approval`). */
export const APPROVAL_POLL_MS = 2_000;

/** The new device's request while it waits: the code its person compares on the old device. */
export interface PendingApproval {
  id: string;
  code: string;
  /** Declined on an old device: the request waits for the recovery key, a reset or another try. */
  declined?: boolean;
}

type Listener = (pending: PendingApproval | null) => void;

export function createIdentityEffects(
  api: ApiClient,
  crypto: () => SecretCrypto,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
) {
  const listeners = new Set<Listener>();
  /** Who hears the people whose identity key changed (the device's chats show them in red). */
  const changeListeners = new Set<(userIds: string[]) => void>();
  const changes = (userIds: string[]) => {
    for (const l of changeListeners) l(userIds);
  };
  let pending: PendingApproval | null = null;
  const announce = (p: PendingApproval | null) => {
    pending = p;
    for (const l of listeners) l(p);
    // A request open: the background registration hands over, so that its code is shown.
    approvalAsked(p !== null);
  };
  let answered: (() => void) | null = null;
  /** Set by askAgain: the declined request is replaced by a new one. */
  let again = false;

  async function serverKey(userId: string): Promise<string | null> {
    const r = await api.call('secretIdentities', { query: { userIds: userId } });
    return r.identities.find((i) => i.userId === userId)?.publicKey ?? null;
  }

  /** The identity key on this device: made here for a person who has none, else approved by an old device. */
  async function ensure(userId: string): Promise<void> {
    const c = crypto();
    const mine = (await c.identityStatus(userId)).publicKey;
    const theirs = await serverKey(userId);
    if (mine && mine === theirs) return;
    if (!theirs && !mine) {
      const { publicKey } = await c.identityCreate(userId);
      try {
        await api.call('secretSetIdentity', { body: { publicKey } });
        return;
      } catch (e) {
        // Another first device of the person won: this one is approved like any new one.
        if (!(e instanceof RequestFailure && e.status === 409)) throw e;
      }
    } else if (!theirs && mine) {
      await api.call('secretSetIdentity', { body: { publicKey: mine } });
      return;
    }
    await approval(userId);
  }

  async function approval(userId: string): Promise<void> {
    for (;;) if (await asked(userId)) return;
  }

  /** One request: true once this device holds the identity key, false when asked to ask again. */
  async function asked(userId: string): Promise<boolean> {
    const c = crypto();
    const request = await c.approvalRequest(userId);
    const { approval: asked } = await api.call('secretApprovalRequest', {
      body: { deviceKey: request.deviceKey, exchangeKey: request.exchangeKey },
    });
    announce({ id: asked.id, code: request.code });
    try {
      for (;;) {
        const { approval: now } = await api.call('secretApproval', { params: { id: asked.id } });
        // The identity key came from the recovery backup meanwhile (recovery-effects.ts): no approval needed.
        const held = (await c.identityStatus(userId)).publicKey;
        if (held && held === (await serverKey(userId))) return true;
        if (now.declined) {
          if (again) {
            again = false;
            return false;
          }
          if (!pending?.declined) announce({ id: asked.id, code: request.code, declined: true });
        } else if (now.signature && now.sealed) {
          const key = await serverKey(userId);
          if (!key || !(await c.approvalAccept(userId, { signature: now.signature, sealed: now.sealed }, key)))
            throw new SecretCryptoError('untrusted', 'Ответ другого устройства не подошёл: войдите ещё раз');
          return true;
        }
        await Promise.race([wait(APPROVAL_POLL_MS), new Promise<void>((r) => (answered = r))]);
      }
    } finally {
      answered = null;
      announce(null);
    }
  }

  return {
    ensure,
    /** The identity keys of these people (members of `conversationId`, or people one may add), pinned or compared. */
    async see(userId: string, userIds: string[], conversationId?: string): Promise<string[]> {
      if (userIds.length === 0) return [];
      const r = await api.call('secretIdentities', {
        query: { userIds: [...new Set(userIds)].join(','), ...(conversationId ? { conversationId } : {}) },
      });
      const { changed } = await crypto().identitiesSeen(userId, r.identities);
      changes(changed);
      return changed;
    },
    /** The people whose identity key changed, told again (after one was accepted). */
    async recheck(userId: string): Promise<void> {
      changes(await crypto().identityChanges(userId));
    },
    onChanges(l: (userIds: string[]) => void) {
      changeListeners.add(l);
      return () => changeListeners.delete(l);
    },
    /** Declined: a new request to the old devices. */
    askAgain() {
      again = true;
      answered?.();
    },
    /**
     * Declined, and no recovery key: a new identity key for the person (a reset; everyone who knew the old one sees
     * the change). The waiting request then ends.
     */
    async reset(userId: string) {
      const { publicKey } = await crypto().identityCreate(userId);
      await api.call('secretSetIdentity', { body: { publicKey, reset: true } });
      answered?.();
    },
    /** `secret:approval` answered: the waiting device asks at once. */
    answered() {
      answered?.();
    },
    pending: () => pending,
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
export type IdentityEffects = ReturnType<typeof createIdentityEffects>;
