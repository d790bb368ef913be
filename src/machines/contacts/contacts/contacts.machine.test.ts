import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { Contact, PublicUser } from '../../../contract/entities';
import { contactsTileSubtitle, filterContacts, presenceOf, upsertContact, withFriend } from './contact-list';
import { ACTION_FAILED, contactsMachine } from './contacts.machine';

const friend = (id: string, displayName: string): PublicUser => ({
  id,
  username: id,
  displayName,
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
});
const boris = friend('u2', 'Борис');
const incoming: Contact = { id: 'c1', status: 'PENDING', direction: 'incoming', friend: boris };
const accepted: Contact = { ...incoming, status: 'ACCEPTED' };
const outgoing: Contact = { id: 'c2', status: 'PENDING', direction: 'outgoing', friend: friend('u3', 'Вера') };
const conflict = (message: string) => {
  return new RequestFailure(409, message);
};
const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const stubbed = contactsMachine.provide({
  actors: {
    session: silent,
    serverEvents: silent,
    fetchContacts: hang,
    respond: hang,
    removeContact: hang,
    addContact: hang,
    openDirect: hang,
  },
});
type Snap = { context: { contacts: Contact[]; error: string | null } };
const has = (s: Snap, id: string) => s.context.contacts.some((c) => c.id === id);
type Full = Snap & { matches(v: unknown): boolean };
const idle = (s: Snap) => (s as Full).matches({ signedIn: { action: 'idle' } });
const ready = (s: Snap) => idle(s) && (s as Full).matches({ signedIn: { list: 'ready' } });
const canAct = (s: Snap) => ready(s) && s.context.error === null;

describeModel({
  name: 'contacts',
  machine: stubbed,
  // Payloads are offered where they tell something new (list events while no action runs, actions on a
  // loaded list without an error shown), to keep the graph small.
  events: {
    'contacts.signedIn': () => [{ type: 'contacts.signedIn', userId: 'me' }],
    'contacts.signedOut': (s) => (s.context.loaded ? [{ type: 'contacts.signedOut' }] : []),
    'contacts.refresh': (s) => (idle(s) && s.context.error === null ? [{ type: 'contacts.refresh' }] : []),
    'contacts.upsert': (s) =>
      idle(s) && s.context.contacts.length === 0 ? [{ type: 'contacts.upsert', contact: incoming }] : [],
    'contacts.removed': (s) => (idle(s) && has(s, 'c1') ? [{ type: 'contacts.removed', contactId: 'c1' }] : []),
    'contacts.profile': (s) =>
      ready(s) && s.context.contacts[0]?.status === 'ACCEPTED' && s.context.contacts[0].friend.avatarUrl === null
        ? [{ type: 'contacts.profile', userId: 'u2', avatarUrl: '/uploads/b.webp', displayName: 'Борис К.' }]
        : [],
    'contacts.presence': (s) =>
      ready(s) && s.context.contacts[0]?.status === 'ACCEPTED' && s.context.contacts[0].friend.status === 'ONLINE'
        ? [
            {
              type: 'contacts.presence',
              userId: 'u2',
              status: 'OFFLINE',
              lastSeenAt: '2024-01-01T00:00:00Z',
              at: 'now',
            },
          ]
        : [],
    'contacts.accept': (s) => (canAct(s) && has(s, 'c1') ? [{ type: 'contacts.accept', contactId: 'c1' }] : []),
    'contacts.reject': (s) => (canAct(s) && has(s, 'c1') ? [{ type: 'contacts.reject', contactId: 'c1' }] : []),
    'contacts.remove': (s) => (canAct(s) && has(s, 'c1') ? [{ type: 'contacts.remove', contactId: 'c1' }] : []),
    'contacts.add': (s) =>
      canAct(s) && s.context.contacts.length === 0
        ? [
            { type: 'contacts.add', identifier: ' @vera ' },
            { type: 'contacts.add', identifier: '   ' },
          ]
        : [],
    'contacts.openChat': (s) => (canAct(s) && has(s, 'c1') ? [{ type: 'contacts.openChat', userId: 'u2' }] : []),
    'contacts.dismissError': (s) => (s.context.error ? [{ type: 'contacts.dismissError' }] : []),
    'xstate.done.actor.fetchContacts': () => [
      { type: 'xstate.done.actor.fetchContacts', output: { contacts: [incoming] } },
    ],
    'xstate.error.actor.fetchContacts': () => [
      { type: 'xstate.error.actor.fetchContacts', error: new Error('offline') },
    ],
    'xstate.done.actor.respond': () => [
      { type: 'xstate.done.actor.respond', output: { contact: accepted } },
      { type: 'xstate.done.actor.respond', output: { contact: null } },
    ],
    'xstate.error.actor.respond': () => [{ type: 'xstate.error.actor.respond', error: conflict('Запрос уже принят') }],
    'xstate.done.actor.removeContact': () => [{ type: 'xstate.done.actor.removeContact', output: { ok: true } }],
    'xstate.error.actor.removeContact': () => [
      { type: 'xstate.error.actor.removeContact', error: new Error('offline') },
    ],
    'xstate.done.actor.addContact': () => [{ type: 'xstate.done.actor.addContact', output: { contact: outgoing } }],
    'xstate.error.actor.addContact': () => [
      { type: 'xstate.error.actor.addContact', error: conflict('Пользователь не найден') },
    ],
    'xstate.done.actor.openDirect': () => [
      {
        type: 'xstate.done.actor.openDirect',
        output: { conversation: { id: 'conv1', title: null, isGroup: false, participants: [], messages: [] } },
      },
    ],
    'xstate.error.actor.openDirect': () => [{ type: 'xstate.error.actor.openDirect', error: new Error('offline') }],
  },
});

describe('contact list helpers', () => {
  it('keeps one entry per id, sorted by name; filters by status and direction', () => {
    const anna: Contact = { id: 'c0', status: 'ACCEPTED', direction: 'outgoing', friend: friend('u1', 'Анна') };
    const list = upsertContact(upsertContact([incoming], outgoing), anna);
    expect(list.map((c) => c.id)).toEqual(['c0', 'c1', 'c2']);
    expect(upsertContact(list, accepted).map((c) => c.status)).toEqual(['ACCEPTED', 'ACCEPTED', 'PENDING']);
    expect(filterContacts(list, 'accepted')).toEqual([anna]);
    expect(filterContacts(list, 'incoming')).toEqual([incoming]);
    expect(filterContacts(list, 'outgoing')).toEqual([outgoing]);
    expect(filterContacts(list, 'all')).toHaveLength(3);
  });

  it("the footer tile reads 'Новый запрос в друзья', else 'Список контактов', else 'Добавить контакт'", () => {
    expect(contactsTileSubtitle([incoming, accepted])).toBe('Новый запрос в друзья');
    expect(contactsTileSubtitle([outgoing, accepted])).toBe('Список контактов');
    expect(contactsTileSubtitle([outgoing])).toBe('Добавить контакт');
    expect(contactsTileSubtitle([])).toBe('Добавить контакт');
  });

  it('applies profile and presence changes to the friend only', () => {
    const list = [incoming, outgoing];
    const changed = withFriend(list, 'u2', (u) => ({ ...u, displayName: 'Ян' }));
    expect(changed.map((c) => c.friend.displayName)).toEqual(['Вера', 'Ян']);
    expect(withFriend(list, 'nobody', (u) => u)).toBe(list);
    expect(presenceOf('AWAY', null, 'now')(boris)).toMatchObject({ status: 'AWAY', lastSeenAt: null });
    expect(presenceOf('ONLINE', null, 'now')(boris)).toMatchObject({ status: 'ONLINE', lastSeenAt: 'now' });
  });
});

describe('contacts with resolving actors', () => {
  it('loads at sign-in, answers a request, opens the chat through the chats actor, and drops everything at sign-out', async () => {
    const heard: unknown[] = [];
    const calls: unknown[] = [];
    let signOut!: () => void;
    const machine = contactsMachine.provide({
      actors: {
        session: fromCallback(({ sendBack }) => {
          sendBack({ type: 'contacts.signedIn', userId: 'me' });
          signOut = () => sendBack({ type: 'contacts.signedOut' });
        }) as never,
        serverEvents: silent,
        fetchContacts: fromPromise(async () => ({ contacts: [incoming] })) as never,
        respond: fromPromise(async ({ input }) => {
          calls.push(input);
          return { contact: accepted };
        }) as never,
        openDirect: fromPromise(async ({ input }) => {
          calls.push(input);
          return { conversation: { id: 'conv1' } };
        }) as never,
      },
    });
    const chats = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'chats', src: chats, systemId: 'chats' },
          { id: 'contacts', src: machine, systemId: 'contacts' },
        ],
      }),
    ).start();
    const contacts = root.system.get('contacts');
    await waitFor(contacts, (s: { context: { loaded: boolean } }) => s.context.loaded);
    contacts.send({ type: 'contacts.accept', contactId: 'c1' });
    await waitFor(contacts, (s: { hasTag(t: string): boolean }) => !s.hasTag('busy'));
    expect(contacts.getSnapshot().context.contacts).toEqual([accepted]);
    const opened: unknown[] = [];
    contacts.on('contacts.chatOpened', (e: unknown) => opened.push(e));
    contacts.send({ type: 'contacts.openChat', userId: 'u2' });
    await waitFor(contacts, (s: { hasTag(t: string): boolean }) => !s.hasTag('busy'));
    expect(calls).toEqual([{ contactId: 'c1', action: 'accept' }, { userId: 'u2' }]);
    expect(heard).toContainEqual({ type: 'chats.open', conversationId: 'conv1' });
    expect(opened).toEqual([{ type: 'contacts.chatOpened', conversationId: 'conv1' }]);
    signOut();
    expect(contacts.getSnapshot().context).toMatchObject({ me: null, contacts: [], loaded: false });
    root.stop();
  });

  it('shows the server message of a failed action, or a fallback', async () => {
    const actor = createActor(
      contactsMachine.provide({
        actors: {
          session: fromCallback(({ sendBack }) => sendBack({ type: 'contacts.signedIn', userId: 'me' })) as never,
          serverEvents: silent,
          fetchContacts: fromPromise(async () => ({ contacts: [] })) as never,
          addContact: fromPromise(async ({ input }) => {
            throw (input as { identifier: string }).identifier === 'x'
              ? conflict('Пользователь не найден')
              : new Error('offline');
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'contacts.add', identifier: ' x ' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Пользователь не найден');
    actor.send({ type: 'contacts.add', identifier: 'y' });
    await waitFor(actor, (s) => s.context.error === ACTION_FAILED);
  });
});
