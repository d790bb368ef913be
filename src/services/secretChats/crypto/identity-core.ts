// The identity-key half of the crypto core (docs/secret-chats.md "Identity keys"): the person's identity key on
// this device, the identity keys pinned for the people met (TOFU), the safety numbers, the approval of a new device,
// and the trust the MLS checks judge leaves by (crypto/identity.ts).
import type { IdentityCrypto, IdentitySeen } from './identity-api';
import {
  approvalCode,
  createExchangeKeys,
  createIdentityKeys,
  type IdentityKeys,
  openIdentity,
  safetyNumber,
  sealIdentity,
  signDevice,
  type Trust,
  verifyDevice,
} from './identity';
import { fromBase64, toBase64 } from './mls-engine';
import { SecretCryptoError } from './secret-crypto';
import type { SecretStore } from './secret-store';

interface StoredIdentity {
  publicKey: string;
  privateKey: string;
}
/** Per person: the pinned key and its version, a newer key not acknowledged yet, and the «проверен» mark. */
interface Pin {
  publicKey: string;
  version: number;
  changed?: { publicKey: string; version: number };
  verified?: boolean;
}
type Pins = Record<string, Pin>;

export function createIdentityCore(store: SecretStore): {
  api: IdentityCrypto;
  trust(userId: string, conversationId: string | null): Promise<Trust>;
  identityOf(userId: string): Promise<IdentityKeys | null>;
  adopt(userId: string, id: IdentityKeys): Promise<boolean>;
} {
  /** The new device's exchange key, in memory until the answer comes. */
  const exchanges = new Map<string, { privateKey: CryptoKey; deviceKey: string }>();
  /** Per user and chat, the members the server listed. */
  const members = new Map<string, Set<string>>();

  async function identityOf(userId: string): Promise<IdentityKeys | null> {
    const s = await store.loadSealed<StoredIdentity>(userId, 'identity');
    return s ? { publicKey: fromBase64(s.publicKey), privateKey: fromBase64(s.privateKey) } : null;
  }
  async function mustIdentity(userId: string): Promise<IdentityKeys> {
    const id = await identityOf(userId);
    if (!id) throw new SecretCryptoError('noDevice', 'На этом устройстве нет ключа личности');
    return id;
  }
  const saveIdentity = (userId: string, id: IdentityKeys) =>
    store.saveSealed(userId, 'identity', { publicKey: toBase64(id.publicKey), privateKey: toBase64(id.privateKey) });
  const pins = async (userId: string) => (await store.loadSealed<Pins>(userId, 'pins')) ?? {};
  /** The person's own key is pinned too: their other devices are judged by it. */
  async function pinOwn(userId: string, id: IdentityKeys) {
    const p = await pins(userId);
    p[userId] = { publicKey: toBase64(id.publicKey), version: p[userId]?.version ?? 1 };
    await store.saveSealed(userId, 'pins', p);
  }

  async function trust(userId: string, conversationId: string | null): Promise<Trust> {
    const p = await pins(userId);
    const identities = new Map(Object.entries(p).map(([id, pin]) => [id, fromBase64(pin.publicKey)]));
    const memberIds = conversationId ? members.get(`${userId}\n${conversationId}`) : undefined;
    return memberIds ? { identities, memberIds } : { identities };
  }

  const api: IdentityCrypto = {
    async identityStatus(userId) {
      const id = await identityOf(userId);
      return { publicKey: id ? toBase64(id.publicKey) : null };
    },
    async identityCreate(userId) {
      const existing = await identityOf(userId);
      const id = existing ?? (await createIdentityKeys());
      if (!existing) await saveIdentity(userId, id);
      await pinOwn(userId, id);
      return { publicKey: toBase64(id.publicKey) };
    },
    async deviceProof(userId) {
      const id = await mustIdentity(userId);
      const d = await store.loadDevice(userId);
      if (!d) throw new SecretCryptoError('noDevice', 'Это устройство ещё не подключено к секретным чатам');
      const identitySignature = d.identitySignature ?? (await signDevice(id, userId, d.signaturePublicKey));
      if (!d.identitySignature) await store.saveDevice({ ...d, identitySignature });
      return { signatureKey: toBase64(d.signaturePublicKey), identitySignature: toBase64(identitySignature) };
    },
    async approvalRequest(userId) {
      const d = await store.loadDevice(userId);
      if (!d) throw new SecretCryptoError('noDevice', 'Это устройство ещё не подключено к секретным чатам');
      const x = await createExchangeKeys();
      const deviceKey = toBase64(d.signaturePublicKey);
      exchanges.set(userId, { privateKey: x.privateKey, deviceKey });
      const exchangeKey = toBase64(x.publicKey);
      return { deviceKey, exchangeKey, code: await approvalCode(deviceKey, exchangeKey) };
    },
    async approvalAccept(userId, answer, identityPublicKey) {
      const x = exchanges.get(userId);
      const d = await store.loadDevice(userId);
      if (!x || !d) return false;
      const privateKey = await openIdentity(answer.sealed, x.privateKey, x.deviceKey);
      if (!privateKey) return false;
      const publicKey = fromBase64(identityPublicKey);
      const signature = fromBase64(answer.signature);
      // The key opened must be the server's identity key (a signature by it checks), and must have signed this device.
      if (!(await verifyDevice(publicKey, userId, d.signaturePublicKey, signature))) return false;
      const id = { publicKey, privateKey };
      const probe = await signDevice(id, userId, d.signaturePublicKey);
      if (!(await verifyDevice(publicKey, userId, d.signaturePublicKey, probe))) return false;
      exchanges.delete(userId);
      await saveIdentity(userId, id);
      await pinOwn(userId, id);
      await store.saveDevice({ ...d, identitySignature: signature });
      return true;
    },
    approvalCode: (deviceKey, exchangeKey) => approvalCode(deviceKey, exchangeKey),
    async approve(userId, request) {
      const id = await mustIdentity(userId);
      const signature = await signDevice(id, userId, fromBase64(request.deviceKey));
      return {
        signature: toBase64(signature),
        sealed: await sealIdentity(id, fromBase64(request.exchangeKey), request.deviceKey),
      };
    },
    async identitiesSeen(userId, seen: IdentitySeen[]) {
      const p = await pins(userId);
      let dirty = false;
      for (const s of seen) {
        const pin = p[s.userId];
        if (!pin) {
          p[s.userId] = { publicKey: s.publicKey, version: s.version };
          dirty = true;
        } else if (pin.publicKey !== s.publicKey && pin.changed?.publicKey !== s.publicKey) {
          // The person's own device never takes a new key silently either: the pin stays until acknowledged.
          pin.changed = { publicKey: s.publicKey, version: s.version };
          dirty = true;
        }
      }
      if (dirty) await store.saveSealed(userId, 'pins', p);
      return {
        changed: Object.entries(p)
          .filter(([, pin]) => pin.changed)
          .map(([id]) => id),
      };
    },
    async identityChanges(userId) {
      return Object.entries(await pins(userId))
        .filter(([, pin]) => pin.changed)
        .map(([id]) => id);
    },
    async identityAcknowledge(userId, personId) {
      const p = await pins(userId);
      const pin = p[personId];
      if (!pin?.changed) return;
      p[personId] = { publicKey: pin.changed.publicKey, version: pin.changed.version };
      await store.saveSealed(userId, 'pins', p);
    },
    async identityVerify(userId, personId, verified) {
      const p = await pins(userId);
      const pin = p[personId];
      if (!pin) throw new SecretCryptoError('failed', 'Ключ этого человека ещё неизвестен');
      p[personId] = verified ? { ...pin, verified: true } : { publicKey: pin.publicKey, version: pin.version };
      if (!verified && pin.changed) p[personId] = { ...p[personId], changed: pin.changed } as Pin;
      await store.saveSealed(userId, 'pins', p);
    },
    async safetyNumber(userId, personId) {
      const p = await pins(userId);
      const mine = p[userId];
      const theirs = p[personId];
      if (!mine || !theirs) return null;
      const digits = await safetyNumber(
        { userId, publicKey: fromBase64(mine.publicKey) },
        { userId: personId, publicKey: fromBase64(theirs.publicKey) },
      );
      return { userId: personId, digits, verified: theirs.verified === true, changed: theirs.changed !== undefined };
    },
    async setMembers(userId, conversationId, memberIds) {
      members.set(`${userId}\n${conversationId}`, new Set(memberIds));
    },
  };
  /**
   * An identity key from the recovery backup: kept only when its private part signs what its public part verifies;
   * then pinned as the person's own and signing this device, as an approval would.
   */
  async function adopt(userId: string, id: IdentityKeys): Promise<boolean> {
    const d = await store.loadDevice(userId);
    if (!d) throw new SecretCryptoError('noDevice', 'Это устройство ещё не подключено к секретным чатам');
    let signature: Uint8Array;
    try {
      signature = await signDevice(id, userId, d.signaturePublicKey);
    } catch {
      return false;
    }
    if (!(await verifyDevice(id.publicKey, userId, d.signaturePublicKey, signature))) return false;
    await saveIdentity(userId, id);
    await pinOwn(userId, id);
    await store.saveDevice({ ...d, identitySignature: signature });
    return true;
  }
  return { api, trust, identityOf, adopt };
}
