// «Ссылки на звонки» (docs/behaviour.md §10.40): a call room's live guest links in a conversation's «Информация» or
// beside a named room of the /calls page, with «Копировать», «Отозвать», «Создать ссылку» and, for a group's owner
// and admins, «Кто впускает гостей». Alive while the section is shown. Views import this module, never
// guestLinks.machine.ts.
import type { GuestLink, GuestLinksResponse } from '../../../contract/guests';
import type { MachineRef } from '../../shared/machine-ref';
import type { z } from 'zod';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export type { GuestLink };

export const LINKS_TEXTS = {
  loadFailed: 'Не удалось загрузить ссылки на звонки',
  actionFailed: 'Не удалось изменить ссылку. Попробуйте ещё раз.',
  admissionFailed: 'Не удалось сохранить, кто впускает гостей. Попробуйте ещё раз.',
} as const;

/** The terms a link may be made for from «Ссылки на звонки» (the range is 1 h – 7 days). */
export const LINK_TERMS = [
  { hours: 1, label: '1 час' },
  { hours: 24, label: '1 день' },
  { hours: 7 * 24, label: '7 дней' },
] as const;

export interface GuestLinksInput {
  /** The call's room: `conv-<id>` or a named room of the /calls page. */
  room: string;
}

export interface GuestLinksContext {
  room: string;
  /** The conversation of a `conv-<id>` room; null for a named room. */
  conversationId: string | null;
  /** The links that still work, newest first (a named room's: one's own). */
  links: GuestLink[];
  /** «Только владелец и администраторы» of a group. */
  adminsOnly: boolean;
  /** The administrator allows guest links on this server. */
  enabled: boolean;
  /** The term of the link being made, in hours. */
  hours: number;
  /** The link being revoked or copied. */
  code: string | null;
  /** The choice being saved. */
  admission: boolean;
  /** A link of the room changed while a request ran: the list is read again once it is done. */
  stale: boolean;
  error: string | null;
}

export type GuestLinksEvent =
  | { type: 'links.create'; hours: number }
  | { type: 'links.revoke'; code: string }
  | { type: 'links.copy'; code: string }
  /** «Кто впускает гостей»: true for only the group's owner and admins. */
  | { type: 'links.admission'; adminsOnly: boolean }
  | { type: 'links.reload' }
  /** `guest:links`: someone made or revoked a link of this room (on any device or server process). */
  | { type: 'links.changed' };

/** busy: a request runs; copied: «Скопировано» shows for the link in `code`. */
export const LINKS_TAGS = { busy: 'busy', copied: 'copied' } as const;

/** The room of a conversation's call. */
export const conversationRoom = (conversationId: string) => `conv-${conversationId}`;

export type GuestLinksRef = MachineRef<GuestLinksContext, GuestLinksEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/guests/guests.effects.ts). */
export interface GuestLinksEffects {
  /** Sends `links.changed` for each `guest:links` of this room. */
  linkChanges: CallbackActorLogic<GuestLinksEvent, { room: string }>;
  /** GET /api/guest-links?room=. */
  loadLinks: PromiseActorLogic<z.output<typeof GuestLinksResponse>, { room: string }>;
  /** POST /api/guest-links. */
  createLink: PromiseActorLogic<unknown, { room: string; hours: number }>;
  /** POST /api/guest-links/revoke. */
  revokeLink: PromiseActorLogic<unknown, { code: string }>;
  /** The link's address to the clipboard. */
  copyLink: PromiseActorLogic<unknown, { code: string }>;
  /** POST /api/guest-links/admission. */
  saveAdmission: PromiseActorLogic<{ adminsOnly: boolean }, { conversationId: string; adminsOnly: boolean }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** A call room's guest links (spawned while «Ссылки на звонки» is shown). */
    guestLinks: GuestLinksRef;
  }
}
