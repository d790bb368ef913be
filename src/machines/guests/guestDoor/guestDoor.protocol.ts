// The door of a call for its members (owned by the call overlay while a call is open, a secret chat's too;
// docs/behaviour.md §10.40): «Пригласить по ссылке» makes a guest link, «Гость Анна хочет войти» with «Впустить» /
// «Отклонить», and «Удалить из звонка» for a guest in the call. Views import this module, never guestDoor.machine.ts.
import type { z } from 'zod';
import type { GuestLink, WaitingGuest } from '../../../contract/guests';
import type { ServerRequestInput } from '../../realtime/realtime/realtime.protocol';
import type { MachineRef } from '../../shared/machine-ref';
import type { Ack } from '../../../contract/events';
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';

/**
 * At a secret chat's call, what this device made of a guest's key (docs/secret-chats.md "Guests in encrypted calls"):
 * whether the link's secret vouches for it, and the short code to compare with the guest's page.
 */
export interface GuestCheck {
  verified: boolean;
  /** «123 456»; null when the key is not vouched for. */
  shortCode: string | null;
  /** Why it cannot be admitted from this device (a key not vouched for, a link of another epoch). */
  problem: string | null;
}
export type Waiting = z.output<typeof WaitingGuest> & { check?: GuestCheck };
/** The link as made from this call; a secret chat's carries its secret in `fragment` (`#k=…`, never sent). */
export type DoorLink = GuestLink & { fragment?: string };
export type { GuestLink };

/** A secret chat's call: whose device derives the link's secret and the call key, for which conversation. */
export interface SecretDoor {
  userId: string;
  conversationId: string;
}

/** How long a link made from the call lives: a day, as the common case (the range is 1 h – 7 days). */
export const CALL_LINK_HOURS = 24;

export const DOOR_TEXTS = {
  linkFailed: 'Не удалось создать ссылку. Попробуйте ещё раз.',
  copied: 'Ссылка скопирована',
} as const;

/**
 * A decision as the wiring sends it. At a secret chat's call `e2ee` says more: «Впустить» seals the call key to the
 * guest's key (the wiring checks its MAC first), «Удалить из звонка» re-keys the call once the server took it.
 */
export type DoorDecision = ServerRequestInput & {
  e2ee?: { secret: SecretDoor; guest: Waiting | null; link: DoorLink | null };
};

export interface GuestDoorInput {
  /** The call's room: `conv-<id>` or a named room of the /calls page. */
  room: string;
  /** A secret chat's call: guests get the call key sealed to them (absent: a plain call). */
  secret?: SecretDoor | null;
}

/** A guest whose knock this page checked against the link's secret: what it takes to seal a call key to it. */
export interface Vouched {
  linkSecret: Uint8Array;
  e2ee: NonNullable<Waiting['e2ee']>;
}

/**
 * What this page keeps at a secret chat's call to seal the call key to guests (docs/secret-chats.md "Guests in
 * encrypted calls"), in memory only, for as long as the door: dropped on sign-out. The wiring reads it from the
 * door's snapshot and changes it only through the `door.keys.*` events.
 */
export interface DoorKeys {
  /**
   * Link secrets this page knows, by link code: made here (kept for the call, so its maker admits through it after
   * the group's epoch moved on), or derived in the link's epoch.
   */
  linkSecrets: Record<string, Uint8Array>;
  /**
   * Guests this page vouched for, by knock: once let in (by any member), each newer epoch's key is sealed to them
   * from every such page in the call, so a key reaches the guest whoever let it in and whoever is still in the call
   * (the guest takes only a newer one); the server's 409 (no longer in) drops one. A guest's participant leaving the
   * room does not drop it: a full reconnect looks the same, and a page that really closed took the private key with it.
   */
  vouched: Record<string, Vouched>;
  /** The guests still waiting at the door, as last heard (before their keys are checked): nothing is sealed to them yet. */
  waitingNow: string[];
}

export const NO_KEYS: DoorKeys = { linkSecrets: {}, vouched: {}, waitingNow: [] };

export interface GuestDoorContext {
  room: string;
  secret: SecretDoor | null;
  /** A secret chat's call: the link secrets and the guests vouched for (empty at a plain call). */
  keys: DoorKeys;
  /** Guests waiting at the door, oldest first (only a decider hears them). */
  waiting: Waiting[];
  /** The server told who waits (`guest:waiting`): the first load's answer, if later, is older news. */
  heard: boolean;
  /** The link made from this call, once made. */
  link: DoorLink | null;
  /** The server's refusal of the last request, for the user. */
  error: string | null;
}

export type GuestDoorEvent =
  | { type: 'door.invite' }
  | { type: 'door.admit'; knockId: string }
  | { type: 'door.deny'; knockId: string }
  | { type: 'door.remove'; knockId: string }
  | { type: 'door.dismissError' }
  /** `guest:waiting` from the server (any room: the machine keeps its own). */
  | { type: 'door.waiting'; room: string; guests: Waiting[]; ring: boolean }
  /** The signed-in user changed (session): a sign-out drops the keys. */
  | { type: 'door.signedIn'; userId: string }
  | { type: 'door.signedOut' }
  | DoorKeysEvent;

/** What the wiring tells the door about its keys (DoorKeys) at a secret chat's call. */
export type DoorKeysEvent =
  /** A link's secret made here or derived in the link's epoch. */
  | { type: 'door.keys.linkSecret'; code: string; linkSecret: Uint8Array }
  /** Who waits at this call's door, as just heard (their keys not yet checked). */
  | { type: 'door.keys.waiting'; knockIds: string[] }
  /** A guest's key checked against the link's secret (a knock, or an admitted guest asking for the call key). */
  | { type: 'door.keys.vouched'; knockId: string; vouched: Vouched }
  /** This page let the guest in: vouched for, and no longer waiting. */
  | { type: 'door.keys.admitted'; knockId: string; vouched: Vouched }
  /** The server says the guest is no longer in: nothing more is sealed to it. */
  | { type: 'door.keys.gone'; knockId: string };

/** A new knock rang: the view plays the notification sound. */
export type GuestDoorEmitted = { type: 'door.rang' };

/** busy: a request runs (a link being made, a decision on its way). */
export const DOOR_TAGS = { busy: 'busy' } as const;

export type GuestDoorRef = MachineRef<GuestDoorContext, GuestDoorEvent, GuestDoorEmitted>;

/** The machine's port: the effects it leaves to its feature's services (src/services/guests/guests.effects.ts). */
export interface GuestDoorEffects {
  /**
   * `guest:waiting` (the machine's own listener); the wiring's also checks each guest's key at a secret chat's call and
   * answers the guests' key requests.
   */
  serverEvents: CallbackActorLogic<EventObject, SecretDoor | null>;
  /** GET /api/guest-links/waiting (403 for a member who does not decide: nobody is shown). */
  loadWaiting: PromiseActorLogic<Waiting[], { room: string; secret?: SecretDoor }>;
  /** POST /api/guest-links, then the link to the clipboard (a secret chat's: with its secret in the fragment). */
  createLink: PromiseActorLogic<DoorLink, { room: string; hours: number; secret?: SecretDoor }>;
  /** A decision over the socket, answered with the server's Ack. */
  decide: PromiseActorLogic<Ack, DoorDecision>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The door of the open call for its members (spawned while a plain call's overlay is shown). */
    guestDoor: GuestDoorRef;
  }
}
