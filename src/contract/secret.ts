// Secret chats (docs/secret-chats.md): the server is MLS's delivery service (RFC 9420 §3) and nothing more. It
// keeps each browser device's one-time key packages, orders every group's commits per conversation (an epoch
// counter: a commit made in an older epoch is refused with 409), hands each welcome to the device it names only,
// and stores application messages as opaque ciphertext (type ENCRYPTED). It never sees a key or a plaintext.
import { z } from 'zod';
import { Id, IsoDate, Message } from './entities';
import { LIMITS } from './limits';
import { Ed25519Key, Ed25519Signature } from './secret-identity';

/** Standard base64 (what the client's encoder writes): MLS messages, key packages and ciphertext travel as it. */
const base64 = (max: number, what: string) =>
  z
    .string()
    .min(4, `${what}: пустое значение`)
    .max(max, `${what}: слишком большой`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, `${what}: ожидается base64`);

export const KeyPackage = base64(LIMITS.keyPackageMaxChars, 'Пакет ключей');
export const MlsMessage = base64(LIMITS.mlsMessageMaxChars, 'Сообщение MLS');
export const Ciphertext = base64(LIMITS.ciphertextMaxChars, 'Зашифрованное сообщение');
const KeyPackages = z
  .array(KeyPackage)
  .min(1, 'Нужен хотя бы один пакет ключей')
  .max(LIMITS.keyPackagesPerUpload, `Не больше ${LIMITS.keyPackagesPerUpload} пакетов ключей за раз`);
const DeviceIds = z.array(Id).max(LIMITS.secretDevicesMax, `Не больше ${LIMITS.secretDevicesMax} устройств`);
const Epoch = z.number().int('Эпоха — целое число').min(0, 'Эпоха не может быть отрицательной');
const UserIds = (min: number, max: number) =>
  z.array(Id).min(min, 'Укажите хотя бы одного человека').max(max, `Не больше ${max} человек`);

/** A browser sign-in that takes part in secret chats (an API client without a browser is none). */
export const SecretDevice = z.object({
  id: Id,
  userId: Id,
  /** Its sign-in: when that ends, the device is revoked and every group removes it. */
  createdAt: IsoDate,
});
export type SecretDevice = z.infer<typeof SecretDevice>;

/** POST /api/secret/devices: this sign-in becomes a device (again the same one when it already is). */
export const RegisterDeviceBody = z.strictObject({
  keyPackages: KeyPackages,
  /** The device's Ed25519 signature key (base64), which signs its key packages and leaves. */
  signatureKey: Ed25519Key,
  /** That key signed by its person's identity key (`deviceStatement`): an unsigned device is refused. */
  identitySignature: Ed25519Signature,
  /**
   * The device's last-resort package: handed out only when it has no other left, and kept then (it replaces an
   * earlier one). It lets a device whose stock ran out while it was away still be added.
   */
  lastResort: KeyPackage.optional(),
});
export const DeviceResponse = z.object({ device: SecretDevice, keyPackagesLeft: z.number().int() });
/** POST /api/secret/key-packages: more one-time key packages for one's device. */
export const KeyPackagesBody = z.strictObject({
  deviceId: Id,
  keyPackages: KeyPackages,
  lastResort: KeyPackage.optional(),
});
export const KeyPackagesLeftResponse = z.object({ keyPackagesLeft: z.number().int() });

/**
 * POST /api/secret/key-packages/claim: one key package of every live device of these users (friends, or members
 * of the secret chat named), each handed out once and deleted. `devices` narrows it to devices not yet in a group.
 */
export const ClaimBody = z.strictObject({
  userIds: UserIds(1, LIMITS.secretMembersMax),
  conversationId: Id.optional(),
  deviceIds: DeviceIds.optional(),
});
export const ClaimedPackage = z.object({ userId: Id, deviceId: Id, keyPackage: z.string() });
export const ClaimResponse = z.object({
  packages: z.array(ClaimedPackage),
  /** Users with no device that has a key package left (they cannot be added now). */
  unavailable: z.array(Id),
});

/**
 * POST /api/secret/conversations: the creating device made the group (epoch 0), added every other device in one
 * commit and hands in the welcome (epoch 1). The server makes the conversation (secret, direct or group) with those
 * members and that group of devices.
 */
export const CreateSecretBody = z.strictObject({
  deviceId: Id,
  memberIds: UserIds(1, LIMITS.secretMembersMax - 1),
  title: z.string().trim().max(LIMITS.groupTitleMax).nullable().optional(),
  groupId: base64(128, 'Идентификатор группы'),
  /** Absent when no other device is added (members who have not opened Беседа in a browser yet). */
  welcome: MlsMessage.optional(),
  /** The devices the welcome is for (their key packages were claimed for it). */
  deviceIds: DeviceIds,
});

/** POST /api/secret/commits: a commit made in `epoch` (the group's current one), with a welcome for added devices. */
export const CommitBody = z.strictObject({
  conversationId: Id,
  deviceId: Id,
  epoch: Epoch,
  commit: MlsMessage,
  welcome: MlsMessage.optional(),
  added: DeviceIds.default([]),
  removed: DeviceIds.default([]),
});
export const CommitResponse = z.object({ seq: z.number().int(), epoch: z.number().int() });

/**
 * POST /api/secret/rejoin: this device could not apply a commit of the group and asks to be added again. Until a
 * member's device commits its re-addition (the stale leaf removed and the device added with a fresh key package,
 * one commit), the state lists it under both `toRemove` and `toAdd`.
 */
export const RejoinBody = z.strictObject({ conversationId: Id, deviceId: Id });
export const RejoinResponse = z.object({ ok: z.literal(true) });

/** One entry of a group's ordered log: a commit (every device reads it) or a welcome (for its devices only). */
export const LogEntry = z.object({
  seq: z.number().int(),
  kind: z.enum(['commit', 'welcome']),
  /** The epoch the entry was made in; a welcome lands its devices in epoch + 1. */
  epoch: z.number().int(),
  deviceId: Id,
  body: z.string(),
  added: z.array(Id),
  removed: z.array(Id),
  createdAt: IsoDate,
});
export type LogEntry = z.infer<typeof LogEntry>;
export const LogQuery = z.strictObject({
  deviceId: Id,
  after: z.coerce.number().int('after — целое число').min(0, 'after не может быть отрицательным').default(0),
});
export const LogParams = z.strictObject({ id: Id });
export const LogResponse = z.object({
  entries: z.array(LogEntry),
  /** The group's epoch now, and whether entries after the last one remain. */
  epoch: z.number().int(),
  hasMore: z.boolean(),
});

/** GET /api/secret/state?deviceId=: what this device has to do — groups to join, devices to add or remove. */
export const StateQuery = z.strictObject({ deviceId: Id });
export const GroupState = z.object({
  conversationId: Id,
  epoch: z.number().int(),
  /** Whether this device is in the group (else a welcome for it waits in the log, or it must be added). */
  member: z.boolean(),
  /**
   * Live devices of members that are not in the group yet, and revoked or departed ones still in it; a device that
   * asked to rejoin is in both.
   */
  toAdd: z.array(z.object({ userId: Id, deviceId: Id })),
  toRemove: z.array(Id),
  /** Members with no live device at all: they have not opened Беседа in a browser since signing in. */
  withoutDevice: z.array(Id),
  /** The chat's members: a device refuses a leaf of anyone else (docs/secret-chats.md "Identity keys"). */
  memberIds: z.array(Id),
});
export const StateResponse = z.object({
  groups: z.array(GroupState),
  /** This device's key packages on the server that have not expired (the last-resort one not counted). */
  keyPackagesLeft: z.number().int(),
  /** Whether it has a last-resort package that has not expired. */
  lastResort: z.boolean(),
});

/** POST /api/secret/send: an application message encrypted in the group's current epoch (else 409). */
export const SecretSendBody = z.strictObject({
  conversationId: Id,
  deviceId: Id,
  epoch: Epoch,
  ciphertext: Ciphertext,
  clientMessageId: z
    .string()
    .min(1, 'clientMessageId не может быть пустым')
    .max(64, 'clientMessageId — не длиннее 64 символов')
    .regex(/^[\x21-\x7e]+$/, 'clientMessageId — печатные ASCII-символы'),
  /**
   * An edit or a reaction (docs/secret-chats.md "Edits, reactions and deletions"): no unread count, no preview in
   * the list, no push or message:notify. The server learns that it is one, not of which message.
   */
  control: z.literal(true, { error: 'control — только true' }).optional(),
});
export const SecretSendResponse = z.object({ message: Message });

/** Socket events (to every live device's user): the log grew, or a group has devices to add or remove. */
export const SecretLogEvent = z.object({ conversationId: Id, seq: z.number().int(), epoch: z.number().int() });
export const SecretPendingEvent = z.object({ conversationIds: z.array(Id) });
/**
 * A member of these secret chats got their first device: the members' devices add it (a commit), and a device
 * holding messages written while that member had none sends them again once it is in.
 */
export const SecretFirstDeviceEvent = z.object({ userId: Id, conversationIds: z.array(Id) });

/**
 * An encrypted attachment (docs/secret-chats.md, "Files and voice messages"): the file sealed in the browser with
 * AES-256-GCM under a fresh key, whose 16-byte tag the ciphertext adds. The server stores the bytes as they came, as
 * application/octet-stream under a random name, and hands them back to the chat's members only; the key, the
 * name and the type travel inside the MLS message.
 */
export const SECRET_UPLOAD_OVERHEAD = 16;
/** POST /api/secret/uploads?conversationId= (body application/octet-stream): answer 201. */
export const SecretUploadQuery = z.strictObject({ conversationId: Id });
export const SecretUploadResponse = z.object({
  /** Same-origin, `/api/secret/uploads/<32 hex>`: what the envelope's attachment names. */
  url: z.string(),
  size: z.number().int(),
});
export type SecretUploadResult = z.output<typeof SecretUploadResponse>;
