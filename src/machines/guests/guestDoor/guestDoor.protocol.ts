// The door of a call for its members (owned by the call overlay while a call is open, a secret chat's too;
// docs/behaviour.md §10.40): «Пригласить по ссылке» makes a guest link, «Гость Анна хочет войти» with «Впустить» /
// «Отклонить», and «Удалить из звонка» for a guest in the call. Views import this module, never guestDoor.machine.ts.
import type { z } from 'zod';
import type { GuestLink, WaitingGuest } from '../../../contract/guests';
import type { MachineRef } from '../../shared/machine-ref';

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

export interface GuestDoorInput {
  /** The call's room: `conv-<id>` or a named room of the /calls page. */
  room: string;
  /** A secret chat's call: guests get the call key sealed to them (absent: a plain call). */
  secret?: SecretDoor | null;
}

export interface GuestDoorContext {
  room: string;
  secret: SecretDoor | null;
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
  /**
   * A guest's participant left the call (its page closed, or removed): a secret chat's call re-keys, by the one
   * member `lead`s (contract/guest-rules.ts `leadsRekey`).
   */
  | { type: 'door.guestLeft'; knockId: string; lead: boolean }
  /** `guest:waiting` from the server (any room: the machine keeps its own). */
  | { type: 'door.waiting'; room: string; guests: Waiting[]; ring: boolean };

/** A new knock rang: the view plays the notification sound. */
export type GuestDoorEmitted = { type: 'door.rang' };

/** busy: a request runs (a link being made, a decision on its way). */
export const DOOR_TAGS = { busy: 'busy' } as const;

export type GuestDoorRef = MachineRef<GuestDoorContext, GuestDoorEvent, GuestDoorEmitted>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** The door of the open call for its members (spawned while a plain call's overlay is shown). */
    guestDoor: GuestDoorRef;
  }
}
