// Identity keys of secret chats (docs/secret-chats.md "Identity keys"). Each person has one Ed25519 identity public
// key here: the first one registered wins; another replaces it only as an explicit reset, which moves the version on
// so that every client that knew the old key shows the change. A device registers only with its signature key signed
// by that identity key (400 otherwise). A new sign-in gets the identity key from an old device of the same person
// through an approval this server relays: the request (the new device's keys), the answer (a signature and the key
// sealed to the new device) — opaque, never opened here.
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import {
  APPROVAL_TTL_MS,
  deviceStatement,
  type SecretApproval,
  type SecretIdentity,
} from '../../src/contract/secret-identity';
import type { Database } from '../db/database';
import type { SecretApprovalsTable, SecretIdentitiesTable } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';

export const NO_IDENTITY = 'Сначала нужен ключ личности: откройте Беседу на устройстве, где уже есть секретные чаты';
export const UNSIGNED_DEVICE =
  'Устройство не подписано ключом личности: подтвердите вход на прежнем устройстве или введите ключ восстановления';
export const IDENTITY_TAKEN =
  'У этого аккаунта уже есть ключ личности: подтвердите вход на прежнем устройстве или введите ключ восстановления';
const APPROVAL_NOT_FOUND = 'Запрос на вход не найден или устарел';
const NOT_YOUR_APPROVAL = 'Это запрос другого устройства';
const APPROVAL_DONE = 'На этот запрос уже ответили';
const APPROVER_NOT_DEVICE = 'Подтверждать вход может только устройство, уже подключённое к секретным чатам';
const BAD_APPROVAL_SIGNATURE = 'Подпись не сделана ключом личности этого аккаунта';

/** Whether `signature` (base64) is the Ed25519 signature of `message` by `publicKey` (base64, raw 32 bytes). */
export function verifyEd25519(publicKey: string, message: string, signature: string): boolean {
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const toIdentity = (r: SecretIdentitiesTable): SecretIdentity => ({
  userId: r.user_id,
  publicKey: r.public_key,
  version: Number(r.version),
  createdAt: r.created_at,
  resetAt: r.reset_at,
});
const toApproval = (r: SecretApprovalsTable): SecretApproval => ({
  id: r.id,
  deviceKey: r.device_key,
  exchangeKey: r.exchange_key,
  createdAt: r.created_at,
  signature: r.signature,
  sealed: r.sealed,
  declined: r.answered_at !== null && r.signature === null,
});

export function createIdentities(db: Database, realtime: RealtimeHub, now: () => string) {
  const find = (userId: string) =>
    db.selectFrom('secret_identities').selectAll().where('user_id', '=', userId).executeTakeFirst();

  async function list(userIds: readonly string[]): Promise<SecretIdentity[]> {
    const rows = await db
      .selectFrom('secret_identities')
      .selectAll()
      .where('user_id', 'in', [...userIds])
      .execute();
    return rows.map(toIdentity);
  }

  /** The caller's identity key: the first one is kept; another only with `reset` (a new version). */
  async function set(userId: string, publicKey: string, reset: boolean): Promise<SecretIdentity> {
    const at = now();
    const current = await find(userId);
    if (!current) {
      await db
        .insertInto('secret_identities')
        .values({ user_id: userId, public_key: publicKey, version: 1, created_at: at, reset_at: null })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const stored = await find(userId);
      if (!stored) throw new Error('secret identity not stored');
      // Two first devices racing: the other's key won.
      if (stored.public_key !== publicKey) throw conflict(IDENTITY_TAKEN);
      return toIdentity(stored);
    }
    if (current.public_key === publicKey) return toIdentity(current);
    if (!reset) throw conflict(IDENTITY_TAKEN);
    await db
      .updateTable('secret_identities')
      .set({ public_key: publicKey, version: Number(current.version) + 1, reset_at: at })
      .where('user_id', '=', userId)
      .where('version', '=', current.version)
      .execute();
    const stored = await find(userId);
    if (!stored || stored.public_key !== publicKey) throw conflict(IDENTITY_TAKEN);
    return toIdentity(stored);
  }

  /** 400 unless the person has an identity key that signed this device key. */
  async function checkDevice(userId: string, signatureKey: string, identitySignature: string): Promise<void> {
    const identity = await find(userId);
    if (!identity) throw badRequest(NO_IDENTITY);
    if (!verifyEd25519(identity.public_key, deviceStatement(userId, signatureKey), identitySignature))
      throw badRequest(UNSIGNED_DEVICE);
  }

  const fresh = () => new Date(Date.parse(now()) - APPROVAL_TTL_MS).toISOString();

  /** A new sign-in's request (one per sign-in: a second replaces the first); the person's devices hear it. */
  async function request(userId: string, sessionId: string, deviceKey: string, exchangeKey: string) {
    const id = randomUUID();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('secret_approvals').where('session_id', '=', sessionId).execute();
      await trx
        .insertInto('secret_approvals')
        .values({
          id,
          user_id: userId,
          session_id: sessionId,
          device_key: deviceKey,
          exchange_key: exchangeKey,
          created_at: now(),
          signature: null,
          sealed: null,
          answered_at: null,
        })
        .execute();
    });
    realtime.toUser(userId, 'secret:approval', { id, answered: false });
    const row = await db.selectFrom('secret_approvals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return toApproval(row);
  }

  /** The person's open requests (unanswered, not expired), but the caller's own. */
  async function open(userId: string, sessionId: string): Promise<SecretApproval[]> {
    const rows = await db
      .selectFrom('secret_approvals')
      .selectAll()
      .where('user_id', '=', userId)
      .where('session_id', '!=', sessionId)
      .where('answered_at', 'is', null)
      .where('created_at', '>=', fresh())
      .orderBy('created_at')
      .execute();
    return rows.map(toApproval);
  }

  async function mine(userId: string, id: string): Promise<SecretApprovalsTable> {
    const row = await db.selectFrom('secret_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.user_id !== userId) throw notFound(APPROVAL_NOT_FOUND);
    return row;
  }

  /** The request as its own sign-in sees it (answered or not). */
  async function get(userId: string, sessionId: string, id: string): Promise<SecretApproval> {
    const row = await mine(userId, id);
    if (row.session_id !== sessionId) throw forbidden(NOT_YOUR_APPROVAL);
    return toApproval(row);
  }

  /** The checks of an answer: the person's open request, answered from another sign-in that is a live device. */
  async function answerable(userId: string, sessionId: string, id: string): Promise<SecretApprovalsTable> {
    const row = await mine(userId, id);
    if (row.answered_at !== null) throw conflict(APPROVAL_DONE);
    if (row.created_at < fresh()) throw notFound(APPROVAL_NOT_FOUND);
    if (row.session_id === sessionId) throw forbidden(APPROVER_NOT_DEVICE);
    const approver = await db
      .selectFrom('secret_devices')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!approver) throw forbidden(APPROVER_NOT_DEVICE);
    return row;
  }

  /** Marks an open request answered (once; a second answer is a conflict) and tells the new sign-in. */
  async function settle(
    userId: string,
    id: string,
    answer: { signature?: string; sealed?: string },
  ): Promise<SecretApproval> {
    const res = await db
      .updateTable('secret_approvals')
      .set({ ...answer, answered_at: now() })
      .where('id', '=', id)
      .where('answered_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict(APPROVAL_DONE);
    realtime.toUser(userId, 'secret:approval', { id, answered: true });
    return toApproval(
      await db.selectFrom('secret_approvals').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    );
  }

  /** «Отклонить» on a device of the person: answered with nothing; the new sign-in hears it and stops waiting. */
  async function decline(userId: string, sessionId: string, id: string): Promise<SecretApproval> {
    await answerable(userId, sessionId, id);
    return settle(userId, id, {});
  }

  /**
   * An old device's answer: the caller's sign-in must be a live device, the signature the identity key's over the
   * new device's key. Answered once; the new sign-in hears it.
   */
  async function answer(userId: string, sessionId: string, id: string, signature: string, sealed: string) {
    const row = await answerable(userId, sessionId, id);
    const identity = await find(userId);
    if (!identity || !verifyEd25519(identity.public_key, deviceStatement(userId, row.device_key), signature))
      throw badRequest(BAD_APPROVAL_SIGNATURE);
    return settle(userId, id, { signature, sealed });
  }

  return { list, set, checkDevice, request, open, get, answer, decline };
}
