// Guest links to calls (docs/behaviour.md §10.40): a member makes a link `/g/<code>` for a call's room; someone without
// an account opens it, gives a name and knocks; the members of the call let them in or not. The guest waits on the
// socket.io namespace `/guest` (GUEST_NAMESPACE) and, once let in, takes a media token scoped to that one room.
import { z } from 'zod';
import { Id, IsoDate, NUL_MESSAGE, noNul } from './entities';
import { GUEST, KNOCK_STATES } from './guest-rules';
import { LIMITS } from './limits';

export {
  CALL_OVER,
  GUEST,
  GUEST_NAMESPACE,
  GUEST_IDENTITY_PREFIX,
  guestIdentity,
  isGuestIdentity,
} from './guest-rules';

/** A link's code: 144 random bits in base64url (24 characters). */
export const GuestCode = z
  .string()
  .min(16, 'Неверная ссылка')
  .max(64, 'Неверная ссылка')
  .regex(/^[\w-]+$/, 'Неверная ссылка');

/** A link as the members see it in «Ссылки на звонки». */
export const GuestLink = z.object({
  code: GuestCode,
  room: z.string(),
  conversationId: Id.nullable(),
  createdAt: IsoDate,
  expiresAt: IsoDate,
  createdBy: z.object({ id: Id, displayName: z.string() }),
  /**
   * A secret chat's link: the MLS epoch its secret was derived in (docs/secret-chats.md "Guests in encrypted calls");
   * absent for a plain call's.
   */
  epoch: z.number().int().min(0).optional(),
});
export type GuestLink = z.infer<typeof GuestLink>;

export const CreateGuestLinkBody = z.strictObject({
  room: z.string().trim().min(1, 'Укажите комнату').max(LIMITS.roomNameMax),
  hours: z
    .number('Срок — целое число часов')
    .refine(Number.isInteger, 'Срок — целое число часов')
    .min(GUEST.linkHoursMin, 'Ссылка живёт не меньше часа')
    .max(GUEST.linkHoursMax, 'Ссылка живёт не больше семи дней'),
  /**
   * A secret chat's call only: the group's epoch on the inviting device, in which every member device derives the
   * link's secret from the MLS exporter. The secret itself never reaches the server (the link's fragment).
   */
  epoch: z.number().int('Эпоха — целое число').min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export const GuestLinkResponse = z.object({ link: GuestLink });
export const GuestLinksQuery = z.strictObject({
  room: z.string().trim().min(1, 'Укажите комнату').max(LIMITS.roomNameMax),
});
/**
 * The room's live links, whether only the group's owner and admins let guests in, and whether the administrator
 * allows guest links at all (off: no new link, and the old ones let nobody in).
 */
export const GuestLinksResponse = z.object({
  links: z.array(GuestLink),
  adminsOnly: z.boolean(),
  enabled: z.boolean(),
});
export const RevokeGuestLinkBody = z.strictObject({ code: GuestCode });
export const GuestCodeParams = z.strictObject({ code: GuestCode });

/** «Кто впускает гостей» of a group: any member (false) or only its owner and admins (true). */
export const GuestAdmissionBody = z.strictObject({ conversationId: Id, adminsOnly: z.boolean() });
export const GuestAdmissionResponse = z.object({ adminsOnly: z.boolean() });

/** What the guest's page shows before knocking (no account: the route is public). */
export const GuestLinkInfoResponse = z.object({
  /** The group's title; null for a direct chat's call or a named room. */
  title: z.string().nullable(),
  /** Who made the link: «Анна приглашает вас в звонок». */
  host: z.string(),
  expiresAt: IsoDate,
  /** A secret chat's call: encrypted end to end, the key comes sealed to the guest's own key (absent: a plain call). */
  encrypted: z.boolean().optional(),
});

/** base64url, as the guest's key, its MAC and a sealed call key travel. */
const B64URL = /^[\w-]+$/;
export const GuestPublicKey = z.string().min(40).max(64).regex(B64URL, 'Неверный ключ гостя');
export const GuestKeyMac = z.string().min(40).max(64).regex(B64URL, 'Неверная подпись ключа гостя');
/** HPKE's encapsulated key and the sealed call key (epoch and 32 bytes) with its tag, base64url: 118 characters. */
export const SealedCallKey = z.string().min(100).max(200).regex(B64URL, 'Неверный ключ для гостя');

export const GuestName = z
  .string()
  .trim()
  .min(GUEST.nameMin, 'Представьтесь, чтобы вас узнали')
  .max(GUEST.nameMax, `Имя — не длиннее ${GUEST.nameMax} символов`)
  .refine(noNul, NUL_MESSAGE);
export const GuestKnockBody = z.strictObject({
  name: GuestName,
  /**
   * A secret chat's call (docs/secret-chats.md "Guests in encrypted calls"): the guest's ephemeral X25519 public key
   * and its HMAC under the link's secret (from the URL fragment, which never reaches the server); both required for
   * such a link, ignored by a plain call's.
   */
  publicKey: GuestPublicKey.optional(),
  keyMac: GuestKeyMac.optional(),
});
export const KnockState = z.enum(KNOCK_STATES);
export type KnockState = z.infer<typeof KnockState>;
/** `secret` proves the guest is the one who knocked: the socket handshake and the token route ask for it. */
export const GuestKnockResponse = z.object({ knockId: Id, secret: z.string(), state: KnockState });
export const KnockParams = z.strictObject({ id: Id });
export const KnockSecretBody = z.strictObject({ secret: z.string().min(16).max(128) });
export const GuestTokenResponse = z.object({
  token: z.string(),
  url: z.string(),
  room: z.string(),
  expiresAt: IsoDate,
});

/** A guest waiting at the door of a call, as its members see them. */
/** A knock's key at a secret chat's link: the guest's key, its MAC, and the link (code, epoch) whose secret checks it. */
export const WaitingGuestE2ee = z.object({
  code: z.string(),
  epoch: z.number(),
  publicKey: z.string(),
  mac: z.string(),
});
export const WaitingGuest = z.object({
  id: Id,
  name: z.string(),
  knockedAt: IsoDate,
  /**
   * At a secret chat's link: the guest's key with its MAC, and the link (code, epoch) whose secret checks it. The
   * members' devices admit only a key the MAC vouches for.
   */
  e2ee: WaitingGuestE2ee.optional(),
});
export const WaitingGuestsResponse = z.object({ guests: z.array(WaitingGuest) });

/** Members' decisions (socket events, acknowledged): let in, turn away, or remove from the call. */
export const KnockRef = z.strictObject({ knockId: Id });
/**
 * «Впустить»: at a secret chat's link with the call key sealed to the guest's key (required there), which the server
 * relays to that guest only and never stores.
 */
export const GuestAdmit = z.strictObject({ knockId: Id, sealed: SealedCallKey.optional() });
/** A newer epoch's call key for a guest already in a secret chat's call, sealed to them likewise. */
export const GuestKey = z.strictObject({ knockId: Id, sealed: SealedCallKey });

/** The guest's socket (namespace GUEST_NAMESPACE): the handshake's `auth`. */
export const GuestSocketAuth = z.strictObject({ knockId: Id, secret: KnockSecretBody.shape.secret });
/** Events the guest's socket hears: its knock's state, first on connecting and then on every change. */
export const guestServerEvents = {
  /** `sealed`: with `admitted` at a secret chat's link, the call key sealed to the guest's key. */
  'guest:state': z.object({ state: KnockState, sealed: z.string().optional() }),
  /** A newer epoch's call key of a secret chat's call, sealed to the guest's key. */
  'guest:key': z.object({ sealed: z.string() }),
} as const;
export type GuestServerEventName = keyof typeof guestServerEvents;
export type GuestServerEvent<K extends GuestServerEventName> = z.infer<(typeof guestServerEvents)[K]>;
