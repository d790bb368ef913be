// The contacts actor's protocol (systemId 'contacts'): the events it accepts (the views', the EBLID search's
// `contacts.upsert`, server events), what it emits, and the notice an added contact gives. Peers and views import
// this module, never contacts.machine.ts.

import type { PromiseActorLogic } from 'xstate';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { Contact, CustomStatus, PresenceStatus } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const ACTION_FAILED = 'Не удалось выполнить действие';

export interface ContactsContext {
  me: string | null;
  contacts: Contact[];
  /** Fetched at least once since sign-in. */
  loaded: boolean;
  /** The contact (or, for opening a chat, the friend's user id) the running action is about. */
  busyId: string | null;
  /** The server's message for the last failed action. */
  error: string | null;
  /** What the last successful add says ('Запрос отправлен' / 'Теперь вы друзья'), until the next add. */
  addedNotice: string | null;
}

export type ContactsEvent =
  | { type: 'contacts.signedIn'; userId: string }
  | { type: 'contacts.signedOut' }
  | { type: 'contacts.refresh' }
  | { type: 'contacts.upsert'; contact: Contact }
  | { type: 'contacts.removed'; contactId: string }
  | {
      type: 'contacts.profile';
      userId: string;
      avatarUrl: string | null;
      displayName: string;
      /** Present when the status of one's own changed (null: cleared). */
      customStatus?: CustomStatus | null;
    }
  | { type: 'contacts.presence'; userId: string; status: PresenceStatus; lastSeenAt: string | null; at: string }
  | { type: 'contacts.accept'; contactId: string }
  | { type: 'contacts.reject'; contactId: string }
  | { type: 'contacts.remove'; contactId: string }
  | { type: 'contacts.add'; identifier: string }
  | { type: 'contacts.openChat'; userId: string }
  | { type: 'contacts.dismissError' }
  | { type: 'contacts.dismissNotice' };

export type ContactsEmitted =
  | { type: 'contacts.added'; contact: Contact }
  /** The direct conversation is open in the chats actor; the view goes to the chats page. */
  | { type: 'contacts.chatOpened'; conversationId: string };

export const REQUEST_SENT = 'Запрос отправлен';
export const NOW_FRIENDS = 'Теперь вы друзья';

/** What adding this contact achieved, in the user's words. */
export const addedNotice = (contact: Contact): string => (contact.status === 'ACCEPTED' ? NOW_FRIENDS : REQUEST_SENT);

export type ContactsRef = MachineRef<ContactsContext, ContactsEvent, ContactsEmitted>;

/** The machine's port: the effects it leaves to its feature's services (src/services/contacts/contacts.effects.ts). */
export interface ContactsEffects {
  fetchContacts: PromiseActorLogic<ResponseOf<'contacts'>, unknown>;
  respond: PromiseActorLogic<ResponseOf<'contactRespond'>, BodyOf<'contactRespond'>>;
  removeContact: PromiseActorLogic<unknown, BodyOf<'contactRemove'>>;
  addContact: PromiseActorLogic<ResponseOf<'contactAdd'>, BodyOf<'contactAdd'>>;
  openDirect: PromiseActorLogic<ResponseOf<'conversationWith'>, BodyOf<'conversationWith'>>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    contacts: ContactsRef;
  }
}
