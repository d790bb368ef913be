// Guest links' numbers and names without zod (docs/behaviour.md §10.40): the browser loads these as values;
// ./guests holds the schemas built on them.
export const GUEST = {
  /** A link lives from one hour to seven days. */
  linkHoursMin: 1,
  linkHoursMax: 7 * 24,
  /** Knocks a link takes in a minute; more are refused with 429. */
  knocksPerMinute: 10,
  /** Guests waiting at one link at once. */
  waitingMax: 20,
  /** The members' «Гость … хочет войти» rings at most once in this window per link. */
  ringEveryMs: 60_000,
  /**
   * A call is over when no one but guests is left in its media room for this long (a member's reconnect within it
   * keeps it going); its admitted guests are then let out (knock state `ended`).
   */
  callEndGraceMs: 15_000,
  /** An admitted guest without the call key asks the deciders for it at most once in this window. */
  keyRequestEveryMs: 3_000,
  nameMin: 1,
  nameMax: 40,
} as const;

/** The token route's refusal once the call a guest was let into is over, and the guest's page's outcome. */
export const CALL_OVER = 'Звонок завершён';

export const GUEST_NAMESPACE = '/guest';
/** The media identity of a guest: never a user id (those have no colon). */
export const GUEST_IDENTITY_PREFIX = 'guest:';
export const guestIdentity = (knockId: string) => `${GUEST_IDENTITY_PREFIX}${knockId}`;
export const isGuestIdentity = (identity: string) => identity.startsWith(GUEST_IDENTITY_PREFIX);
/**
 * When a guest leaves a secret chat's call, one member re-keys it: the member with the lowest identity among those
 * still in the call, so the call moves on even when the member who let the guest in has already left.
 */
export const leadsRekey = (own: string, others: readonly string[]) =>
  others.filter((id) => !isGuestIdentity(id)).every((id) => own <= id);

/** `ended`: let in, but the call is over; a new knock at the same link may be let in to a later call. */
export const KNOCK_STATES = ['waiting', 'admitted', 'denied', 'removed', 'gone', 'ended'] as const;
export type KnockState = (typeof KNOCK_STATES)[number];
/** A guest link's address as people pass it on. */
export const guestLinkUrl = (origin: string, code: string) => `${origin}/g/${code}`;
