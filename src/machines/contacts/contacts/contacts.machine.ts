// The signed-in user's contacts (docs/behaviour.md §2, §4; systemId 'contacts', spawned by the app actor): every
// request and friend, fetched at sign-in and after each reconnection, and kept current by the other side's
// socket events (contacts:request:new, contacts:request:accepted, contacts:removed) and by profile and presence
// changes of friends. It runs one user action at a time: accept, reject, remove, add by identifier, and opening
// the direct conversation with a friend, which it hands to the chats actor (`chats.open`).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureMessage } from '../../../contract/failure';
import { chatsInbox } from '../../chats/chats/chats.protocol';
import { listenToServer } from '../../realtime/index';
import { watchSignedInUser } from '../../session/index';
import { notWired } from '../../shared/not-wired';
import { presenceOf, removeContact, sortContacts, upsertContact, withFriend } from './contact-list';
import {
  ACTION_FAILED,
  addedNotice,
  type ContactsContext,
  type ContactsEffects,
  type ContactsEmitted,
  type ContactsEvent,
} from './contacts.protocol';

export * from './contacts.protocol';

export const contactsServerEvents = listenToServer<ContactsEvent>(
  {
    'contacts:request:new': (p) => ({ type: 'contacts.upsert', contact: p.contact }),
    'contacts:request:accepted': (p) => ({ type: 'contacts.upsert', contact: p.contact }),
    'contacts:removed': (p) => ({ type: 'contacts.removed', contactId: p.contactId }),
    'profile:update': (p) => ({
      type: 'contacts.profile',
      userId: p.userId,
      avatarUrl: p.avatarUrl,
      displayName: p.displayName,
      ...(p.customStatus !== undefined ? { customStatus: p.customStatus } : {}),
    }),
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

const initialContext = (): ContactsContext => ({
  me: null,
  contacts: [],
  loaded: false,
  busyId: null,
  error: null,
  addedNotice: null,
});

export const contactsMachine = setup({
  types: {
    context: {} as ContactsContext,
    events: {} as ContactsEvent,
    emitted: {} as ContactsEmitted,
  },
  actors: {
    session: watchSignedInUser('contacts.signedIn', 'contacts.signedOut'),
    serverEvents: contactsServerEvents,
    fetchContacts: notWired('contacts.fetchContacts') as ContactsEffects['fetchContacts'],
    respond: notWired('contacts.respond') as ContactsEffects['respond'],
    removeContact: notWired('contacts.removeContact') as ContactsEffects['removeContact'],
    addContact: notWired('contacts.addContact') as ContactsEffects['addContact'],
    openDirect: notWired('contacts.openDirect') as ContactsEffects['openDirect'],
  },
  guards: {
    hasIdentifier: ({ event }) => {
      assertEvent(event, 'contacts.add');
      return event.identifier.trim() !== '';
    },
  },
  actions: {
    reset: assign(initialContext),
    takeList: assign((_, { contacts }: ResponseOf<'contacts'>) => ({
      contacts: sortContacts(contacts ?? []),
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
        return withFriend(context.contacts, event.userId, (u) => ({
          ...u,
          avatarUrl: event.avatarUrl,
          displayName: event.displayName,
          ...(event.customStatus !== undefined ? { customStatus: event.customStatus } : {}),
        }));
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
        assertEvent(event, ['contacts.accept', 'contacts.reject', 'contacts.remove', 'contacts.openChat']);
        return event.type === 'contacts.openChat' ? event.userId : event.contactId;
      },
      error: null,
    }),
    startAdding: assign({ busyId: null, error: null, addedNotice: null }),
    failAction: assign({ busyId: null, error: (_, message: string) => message }),
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
        'contacts.dismissNotice': { actions: assign({ addedNotice: null }) },
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
                onDone: { target: 'ready', actions: { type: 'takeList', params: ({ event }) => event.output } },
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
                'contacts.add': { guard: 'hasIdentifier', target: 'adding', actions: 'startAdding' },
                'contacts.openChat': { target: 'openingChat', actions: 'startAction' },
              },
            },
            responding: {
              tags: ['busy'],
              invoke: {
                id: 'respond',
                src: 'respond',
                input: ({ event }) => {
                  assertEvent(event, ['contacts.accept', 'contacts.reject']);
                  return {
                    contactId: event.contactId,
                    action: event.type === 'contacts.accept' ? ('accept' as const) : ('reject' as const),
                  };
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
                onError: {
                  target: 'idle',
                  actions: { type: 'failAction', params: ({ event }) => failureMessage(event.error, ACTION_FAILED) },
                },
              },
            },
            removing: {
              tags: ['busy'],
              invoke: {
                id: 'removeContact',
                src: 'removeContact',
                input: ({ event }) => {
                  assertEvent(event, 'contacts.remove');
                  return { contactId: event.contactId };
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({ contacts: ({ context }) => removeContact(context.contacts, context.busyId ?? '') }),
                    'endAction',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'failAction', params: ({ event }) => failureMessage(event.error, ACTION_FAILED) },
                },
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
                    assign({
                      contacts: ({ context, event }) => upsertContact(context.contacts, event.output.contact),
                      addedNotice: ({ event }) => addedNotice(event.output.contact),
                    }),
                    'endAction',
                    enqueueActions(({ event, enqueue }) => {
                      enqueue.emit({ type: 'contacts.added', contact: event.output.contact });
                    }),
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'failAction', params: ({ event }) => failureMessage(event.error, ACTION_FAILED) },
                },
              },
            },
            openingChat: {
              tags: ['busy'],
              invoke: {
                id: 'openDirect',
                src: 'openDirect',
                input: ({ event }) => {
                  assertEvent(event, 'contacts.openChat');
                  return { userId: event.userId };
                },
                onDone: {
                  target: 'idle',
                  actions: [
                    'endAction',
                    enqueueActions(({ event, system, enqueue }) => {
                      const conversationId = event.output.conversation.id;
                      const chats = chatsInbox(system);
                      if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId });
                      enqueue.emit({ type: 'contacts.chatOpened', conversationId });
                    }),
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'failAction', params: ({ event }) => failureMessage(event.error, ACTION_FAILED) },
                },
              },
            },
          },
        },
      },
    },
  },
});

export type ContactsActorRef = import('xstate').ActorRefFrom<typeof contactsMachine>;
