// The signed-in user's contacts (docs/behaviour.md §2, §4; systemId 'contacts', spawned by the app actor): every
// request and friend, fetched at sign-in and after each reconnection, and kept current by the other side's
// socket events (contacts:request:new, contacts:request:accepted, contacts:removed) and by profile and presence
// changes of friends. It runs one user action at a time: accept, reject, remove, add by identifier, and opening
// the direct conversation with a friend, which it hands to the chats actor (`chats.open`).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import type { Contact, PresenceStatus } from '../../contract/entities';
import { serverMessage } from '../../services/api';
import { notWired } from '../not-wired';
import { listenToServer } from '../realtime/listen-to-server';
import { presenceOf, removeContact, sortContacts, upsertContact, withFriend } from './contact-list';
import { watchSignedInUser } from './watch-signed-in-user';

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
}

export type ContactsEvent =
  | { type: 'contacts.signedIn'; userId: string }
  | { type: 'contacts.signedOut' }
  | { type: 'contacts.refresh' }
  | { type: 'contacts.upsert'; contact: Contact }
  | { type: 'contacts.removed'; contactId: string }
  | { type: 'contacts.profile'; userId: string; avatarUrl: string | null; displayName: string }
  | { type: 'contacts.presence'; userId: string; status: PresenceStatus; lastSeenAt: string | null; at: string }
  | { type: 'contacts.accept'; contactId: string }
  | { type: 'contacts.reject'; contactId: string }
  | { type: 'contacts.remove'; contactId: string }
  | { type: 'contacts.add'; identifier: string }
  | { type: 'contacts.openChat'; userId: string }
  | { type: 'contacts.dismissError' };

export type ContactsEmitted =
  | { type: 'contacts.added'; contact: Contact }
  /** The direct conversation is open in the chats actor; the view goes to the chats page. */
  | { type: 'contacts.chatOpened'; conversationId: string };

export const contactsServerEvents = listenToServer<ContactsEvent>(
  {
    'contacts:request:new': (p) => ({ type: 'contacts.upsert', contact: p.contact }),
    'contacts:request:accepted': (p) => ({ type: 'contacts.upsert', contact: p.contact }),
    'contacts:removed': (p) => ({ type: 'contacts.removed', contactId: p.contactId }),
    'profile:update': (p) => ({ type: 'contacts.profile', userId: p.userId, avatarUrl: p.avatarUrl, displayName: p.displayName }),
    'presence:update': (p) => ({
      type: 'contacts.presence',
      userId: p.userId,
      status: p.status,
      lastSeenAt: p.lastSeenAt,
      at: new Date().toISOString(),
    }),
  },
  // Events missed while the socket was away: fetch the list again.
  { onConnected: () => ({ type: 'contacts.refresh' }) },
);

const initialContext = (): ContactsContext => ({ me: null, contacts: [], loaded: false, busyId: null, error: null });

export const contactsMachine = setup({
  types: {
    context: {} as ContactsContext,
    events: {} as ContactsEvent,
    emitted: {} as ContactsEmitted,
  },
  actors: {
    session: watchSignedInUser('contacts.signedIn', 'contacts.signedOut'),
    serverEvents: contactsServerEvents,
    fetchContacts: notWired<ResponseOf<'contacts'>>('contacts.fetchContacts'),
    respond: notWired<ResponseOf<'contactRespond'>, BodyOf<'contactRespond'>>('contacts.respond'),
    removeContact: notWired<unknown, BodyOf<'contactRemove'>>('contacts.removeContact'),
    addContact: notWired<ResponseOf<'contactAdd'>, BodyOf<'contactAdd'>>('contacts.addContact'),
    openDirect: notWired<ResponseOf<'conversationWith'>, BodyOf<'conversationWith'>>('contacts.openDirect'),
  },
  guards: {
    hasIdentifier: ({ event }) => {
      assertEvent(event, 'contacts.add');
      return event.identifier.trim() !== '';
    },
  },
  actions: {
    reset: assign(initialContext),
    takeList: assign(({ event }) => ({
      contacts: sortContacts((event as unknown as { output: ResponseOf<'contacts'> }).output.contacts ?? []),
      loaded: true,
    })),
    upsert: assign({
      contacts: ({ context, event }) => {
        assertEvent(event, 'contacts.upsert');
        return upsertContact(context.contacts, event.contact);
      },
    }),
    remove: assign({
      contacts: ({ context, event }) => {
        assertEvent(event, 'contacts.removed');
        return removeContact(context.contacts, event.contactId);
      },
    }),
    applyProfile: assign({
      contacts: ({ context, event }) => {
        assertEvent(event, 'contacts.profile');
        return withFriend(context.contacts, event.userId, (u) => ({ ...u, avatarUrl: event.avatarUrl, displayName: event.displayName }));
      },
    }),
    applyPresence: assign({
      contacts: ({ context, event }) => {
        assertEvent(event, 'contacts.presence');
        return withFriend(context.contacts, event.userId, presenceOf(event.status, event.lastSeenAt, event.at));
      },
    }),
    startAction: assign({
      busyId: ({ event }) => {
        const e = event as { contactId?: string; userId?: string };
        return e.contactId ?? e.userId ?? null;
      },
      error: null,
    }),
    failAction: assign({
      busyId: null,
      error: ({ event }) => serverMessage((event as { error?: unknown }).error) ?? ACTION_FAILED,
    }),
    endAction: assign({ busyId: null }),
  },
}).createMachine({
  id: 'contacts',
  context: initialContext,
  invoke: { id: 'session', src: 'session' },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'contacts.signedIn': { target: 'signedIn', actions: assign({ me: ({ event }) => event.userId }) } },
    },
    signedIn: {
      invoke: { id: 'serverEvents', src: 'serverEvents' },
      on: {
        'contacts.signedOut': { target: 'signedOut', actions: 'reset' },
        'contacts.profile': { actions: 'applyProfile' },
        'contacts.presence': { actions: 'applyPresence' },
        'contacts.dismissError': { actions: assign({ error: null }) },
      },
      type: 'parallel',
      states: {
        list: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchContacts',
                src: 'fetchContacts',
                onDone: { target: 'ready', actions: 'takeList' },
                // Kept as it was; the next reconnection or refresh tries again.
                onError: { target: 'ready' },
              },
              on: {
                'contacts.refresh': { target: 'loading', reenter: true },
                // The answer in flight may predate this change: apply it and ask again.
                'contacts.upsert': { target: 'loading', reenter: true, actions: 'upsert' },
                'contacts.removed': { target: 'loading', reenter: true, actions: 'remove' },
              },
            },
            ready: {
              on: {
                'contacts.refresh': 'loading',
                'contacts.upsert': { actions: 'upsert' },
                'contacts.removed': { actions: 'remove' },
              },
            },
          },
        },
        action: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'contacts.accept': { target: 'responding', actions: 'startAction' },
                'contacts.reject': { target: 'responding', actions: 'startAction' },
                'contacts.remove': { target: 'removing', actions: 'startAction' },
                'contacts.add': { guard: 'hasIdentifier', target: 'adding', actions: 'startAction' },
                'contacts.openChat': { target: 'openingChat', actions: 'startAction' },
              },
            },
            responding: {
              tags: ['busy'],
              invoke: {
                id: 'respond',
                src: 'respond',
                input: ({ event }) => {
                  const e = event as Extract<ContactsEvent, { type: 'contacts.accept' | 'contacts.reject' }>;
                  return { contactId: e.contactId, action: e.type === 'contacts.accept' ? ('accept' as const) : ('reject' as const) };
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    enqueueActions(({ context, event, enqueue }) => {
                      const answered = event.output.contact;
                      // Accepted: the friendship replaces the request; rejected: the request is gone.
                      enqueue.assign({
                        contacts: answered
                          ? upsertContact(context.contacts, answered)
                          : removeContact(context.contacts, context.busyId ?? ''),
                      });
                    }),
                    'endAction',
                  ],
                },
                onError: { target: 'idle', actions: 'failAction' },
              },
            },
            removing: {
              tags: ['busy'],
              invoke: {
                id: 'removeContact',
                src: 'removeContact',
                input: ({ context }) => ({ contactId: context.busyId! }),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({ contacts: ({ context }) => removeContact(context.contacts, context.busyId ?? '') }),
                    'endAction',
                  ],
                },
                onError: { target: 'idle', actions: 'failAction' },
              },
            },
            adding: {
              tags: ['busy'],
              invoke: {
                id: 'addContact',
                src: 'addContact',
                input: ({ event }) => {
                  assertEvent(event, 'contacts.add');
                  return { identifier: event.identifier.trim() };
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({ contacts: ({ context, event }) => upsertContact(context.contacts, event.output.contact) }),
                    'endAction',
                    enqueueActions(({ event, enqueue }) => {
                      enqueue.emit({ type: 'contacts.added', contact: event.output.contact });
                    }),
                  ],
                },
                onError: { target: 'idle', actions: 'failAction' },
              },
            },
            openingChat: {
              tags: ['busy'],
              invoke: {
                id: 'openDirect',
                src: 'openDirect',
                input: ({ context }) => ({ userId: context.busyId! }),
                onDone: {
                  target: 'idle',
                  actions: [
                    'endAction',
                    enqueueActions(({ event, system, enqueue }) => {
                      const conversationId = event.output.conversation.id;
                      const chats = system.get('chats');
                      const open = { type: 'chats.open', conversationId };
                      if (chats) enqueue.sendTo(chats, open);
                      enqueue.emit({ type: 'contacts.chatOpened', conversationId });
                    }),
                  ],
                },
                onError: { target: 'idle', actions: 'failAction' },
              },
            },
          },
        },
      },
    },
  },
});

export type ContactsActorRef = import('xstate').ActorRefFrom<typeof contactsMachine>;
