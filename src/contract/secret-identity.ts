// Identity keys of secret chats (docs/secret-chats.md "Identity keys"): one Ed25519 key per person signs each of
// their devices' signature keys, so members add a person's devices only when the person's own key vouches for them.
// The server keeps the public keys (the first one wins; another only as an explicit reset) and relays a new device's
// request for the identity key to the person's old devices, sealed end to end.
import { z } from 'zod';
import { Id, IsoDate } from './entities';

/** base64 of exactly `bytes` bytes. */
const fixedBase64 = (bytes: number, what: string) =>
  z
    .string()
    .length(4 * Math.ceil(bytes / 3), `${what}: неверная длина`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${what}: ожидается base64`);

/** An Ed25519 public key (32 bytes). */
export const Ed25519Key = fixedBase64(32, 'Ключ');
/** An Ed25519 signature (64 bytes). */
export const Ed25519Signature = fixedBase64(64, 'Подпись');
/** A P-256 public key for ECDH, uncompressed (65 bytes). */
export const ExchangeKey = fixedBase64(65, 'Ключ обмена');

export { deviceStatement } from './identity-statement';

export const SecretIdentity = z.object({
  userId: Id,
  publicKey: Ed25519Key,
  /** 1 for the first key, one more at each reset. */
  version: z.number().int(),
  createdAt: IsoDate,
  /** When the key was last replaced without the old one (clients that knew the old key show it in red). */
  resetAt: IsoDate.nullable(),
});
export type SecretIdentity = z.infer<typeof SecretIdentity>;

/** GET /api/secret/identities?userIds=a,b[&conversationId=]: the identity keys of people one may add. */
export const IdentitiesQuery = z.strictObject({
  userIds: z
    .string()
    .max(50 * 40, 'Слишком много людей')
    .transform((s) => [...new Set(s.split(',').filter(Boolean))])
    .pipe(z.array(Id).min(1, 'Укажите хотя бы одного человека').max(50, 'Не больше 50 человек')),
  conversationId: Id.optional(),
});
export const IdentitiesResponse = z.object({ identities: z.array(SecretIdentity) });

/** POST /api/secret/identity: the caller's identity key; another than the current one only with `reset: true`. */
export const SetIdentityBody = z.strictObject({
  publicKey: Ed25519Key,
  reset: z.literal(true, { error: 'reset: допустимо только true' }).optional(),
});
export const IdentityResponse = z.object({ identity: SecretIdentity });

/** A new sign-in's request for the identity key, answered on an old device of the same person. */
export const SecretApproval = z.object({
  id: Id,
  /** The new device's signature key: the old device signs it. */
  deviceKey: Ed25519Key,
  /** Its ECDH key: the old device seals the identity key to it. */
  exchangeKey: ExchangeKey,
  createdAt: IsoDate,
  /** Once answered: the signature of deviceKey by the identity key, and the identity key sealed to exchangeKey. */
  signature: Ed25519Signature.nullable(),
  sealed: z.string().nullable(),
  /** Declined on a device of the person: the new device stops waiting and offers the recovery key or a reset. */
  declined: z.boolean(),
});
export type SecretApproval = z.infer<typeof SecretApproval>;
export const ApprovalRequestBody = z.strictObject({ deviceKey: Ed25519Key, exchangeKey: ExchangeKey });
export const ApprovalResponse = z.object({ approval: SecretApproval });
export const ApprovalsResponse = z.object({ approvals: z.array(SecretApproval) });
export const ApprovalParams = z.strictObject({ id: Id });
export const ApprovalAnswerBody = z.strictObject({
  signature: Ed25519Signature,
  /** base64: IV, ephemeral key and AES-GCM ciphertext; opaque to the server. */
  sealed: z
    .string()
    .min(4, 'Ответ пустой')
    .max(1024, 'Ответ слишком большой')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Ответ: ожидается base64'),
});

/** How long a request waits for an answer. */
export const APPROVAL_TTL_MS = 10 * 60 * 1000;
