import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { conversation, entry, message, person } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { ConversationEntry } from '../../../contract/entities';
import { conversationLoaderMachine, LOADER_TAGS } from '../conversationLoader/conversationLoader.machine';
import { chatsMachine } from './chats.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const child = createMachine({});

const me = person('me', 'Я');
const anna = person('u2', 'Анна', { status: 'ONLINE' });
const c1 = conversation('c1', [me, anna], { messages: [message('m1', 'u2', 1)] });
const c2 = conversation('c2', [me, person('u3', 'Борис')], {
  messages: [message('n1', 'u3', 2, { conversationId: 'c2' })],
});
const list = { conversations: [entry(c1, 2), entry(c2)] };
const fromAnna = message('m2', 'u2', 3);
const fromMe = message('m3', 'me', 4);
const unknownConversation = message('x1', 'u9', 5, { conversationId: 'c9' });
const mutedForever = { mutedUntil: 'forever', pinned: false, pinnedAt: null, archived: false };
/** c1 muted (the list said so): its messages count as unread but are not announced. */
const mutedList = { conversations: [{ ...entry(c1, 2), settings: mutedForever }, entry(c2)] };

type Snap = ReturnType<typeof chatsMachine.getInitialSnapshot>;
type Loader = ReturnType<typeof createActor<typeof conversationLoaderMachine>>;
/** The chats actor's child 'loader' (the selected conversation's code and actor). */
const loaderOf = (actor: { getSnapshot(): Snap }) => actor.getSnapshot().children.loader as unknown as Loader;
const loadedAsFetched = (s: Snap) =>
  s.context.loaded && s.context.entries.length === 2 && s.context.recentIds.length === 0;
const atRest = (s: Snap) => s.matches({ active: { list: 'idle' } });
/** One thing at a time: user and server events only from the freshly fetched list (see conversation's test). */
const fresh = (s: Snap) =>
  atRest(s) &&
  loadedAsFetched(s) &&
  s.context.pageVisible &&
  JSON.stringify(s.context.entries) === JSON.stringify([entry(c2), entry(c1, s.context.selectedId === 'c1' ? 0 : 2)]) &&
  (s.context.viewing || s.context.selectedId === null);
/** The muted list just fetched, nothing selected. */
const mutedFresh = (s: Snap) =>
  atRest(s) && loadedAsFetched(s) && s.context.selectedId === null && s.context.entries.some((e) => e.settings);
/** c1 open and marked unread after the fresh list (on another device, say): opening it again is offered. */
const markedOpen = (s: Snap) =>
  atRest(s) &&
  s.context.selectedId === 'c1' &&
  s.context.entries.some((e) => e.conversation.id === 'c1' && e.settings?.markedUnread);
const oneAtATime =
  <T extends { type: string }>(make: (s: Snap) => T[]) =>
  (s: Snap) =>
    fresh(s) ? make(s) : [];

/** Opening c1 (or c2 once one is open) from the fresh list. */
const chatsOpen = oneAtATime((s) =>
  s.context.selectedId === null
    ? [{ type: 'chats.open' as const, conversationId: 'c1' }]
    : [
        { type: 'chats.open' as const, conversationId: 'c1' },
        { type: 'chats.open' as const, conversationId: 'c2' },
      ],
);
const unmarked = { mutedUntil: null, pinned: false, pinnedAt: null, archived: false };

describeModel({
  name: 'chats',
  machine: chatsMachine.provide({
    actors: {
      session: quiet,
      pageVisibility: quiet,
      serverEvents: quiet,
      fetchConversations: hang,
      markRead: hang,
      deliveries: quiet,
      conversationLoader: child,
    } as never,
  }),
  events: {
    'chats.signedIn': () => [{ type: 'chats.signedIn', userId: 'me' }],
    'chats.signedOut': oneAtATime(() => [{ type: 'chats.signedOut' }]),
    'chats.open': (s) => (markedOpen(s) ? [{ type: 'chats.open', conversationId: 'c1' }] : chatsOpen(s)),
    'chats.settings': (s) =>
      fresh(s)
        ? [
            {
              type: 'chats.settings',
              conversationId: 'c1',
              settings: { ...mutedForever, pinned: true, pinnedAt: 'x' },
            },
            ...(s.context.selectedId === 'c1'
              ? [{ type: 'chats.settings', conversationId: 'c1', settings: { ...unmarked, markedUnread: true } }]
              : []),
          ]
        : [],
    'chats.close': oneAtATime(() => [{ type: 'chats.close' }]),
    'chats.refresh': (s) => (fresh(s) || s.matches({ active: { list: 'loading' } }) ? [{ type: 'chats.refresh' }] : []),
    'chats.reconnected': (s) =>
      fresh(s) || s.matches({ active: { list: 'loading' } }) ? [{ type: 'chats.reconnected' }] : [],
    'chats.call': oneAtATime(() => [{ type: 'chats.call', video: true }]),
    'chats.visibility': (s) =>
      s.matches('signedOut') || fresh(s) || !s.context.pageVisible
        ? [{ type: 'chats.visibility', visible: !s.context.pageVisible }]
        : [],
    'chats.viewing': (s) =>
      s.matches('signedOut') || fresh(s) ? [{ type: 'chats.viewing', viewing: !s.context.viewing }] : [],
    'chats.messageArrived': (s) =>
      mutedFresh(s)
        ? [{ type: 'chats.messageArrived', message: fromAnna }]
        : fresh(s) || (!s.context.pageVisible && loadedAsFetched(s))
          ? [
              { type: 'chats.messageArrived', message: fromAnna },
              { type: 'chats.messageArrived', message: fromMe },
              { type: 'chats.messageArrived', message: unknownConversation },
            ]
          : // the same message again (message:new after message:notify)
            s.context.recentIds.length === 1 && atRest(s)
            ? [{ type: 'chats.messageArrived', message: s.context.recentIds[0] === 'm2' ? fromAnna : fromMe }]
            : [],
    'composer.delivered': oneAtATime(() => [
      { type: 'composer.delivered', message: fromMe, refresh: false },
      { type: 'composer.delivered', message: { ...fromMe, id: 'm4', type: 'FILE' }, refresh: true },
    ]),
    'chats.messageEdited': oneAtATime(() => [
      {
        type: 'chats.messageEdited',
        conversationId: 'c1',
        messageId: 'm1',
        content: 'правка',
        editedAt: '2025-03-01T12:00:00.000Z',
      },
    ]),
    'chats.messageDeleted': oneAtATime(() => [{ type: 'chats.messageDeleted', conversationId: 'c1', messageId: 'm1' }]),
    'chats.receipts': oneAtATime(() => [
      { type: 'chats.receipts', conversationId: 'c1', userId: 'me', messageIds: ['m1'] },
    ]),
    'chats.presence': oneAtATime(() => [
      { type: 'chats.presence', userId: 'u2', status: 'OFFLINE', lastSeenAt: null, at: '2025-03-01T12:00:00.000Z' },
    ]),
    'chats.profile': oneAtATime(() => [
      { type: 'chats.profile', userId: 'u2', avatarUrl: 'emoji:🦊', displayName: 'Аня' },
    ]),
    'chats.conversationAdded': oneAtATime(() => [
      {
        type: 'chats.conversationAdded',
        conversation: conversation('c3', [me, anna], { title: 'Группа', isGroup: true }),
      },
    ]),
    'chats.conversationUpdated': oneAtATime(() => [
      { type: 'chats.conversationUpdated', conversation: { ...c1, title: 'Дача' } },
    ]),
    'chats.groupCall': oneAtATime(() => [
      { type: 'chats.groupCall', conversationId: 'c1', call: { participantIds: ['u2'], video: false } },
    ]),
    'chats.conversationRemoved': oneAtATime((s) => [
      { type: 'chats.conversationRemoved', conversationId: s.context.selectedId ?? 'c2' },
      ...(s.context.selectedId ? [{ type: 'chats.conversationRemoved', conversationId: 'c9' }] : []),
    ]),
    'xstate.done.actor.fetchConversations': () => [
      { type: 'xstate.done.actor.fetchConversations', output: list },
      { type: 'xstate.done.actor.fetchConversations', output: mutedList },
    ],
    'xstate.error.actor.fetchConversations': () => [
      { type: 'xstate.error.actor.fetchConversations', error: new Error('offline') },
    ],
    'xstate.error.actor.markRead': () => [{ type: 'xstate.error.actor.markRead', error: new Error('offline') }],
  },
});

describe('chats with resolving actors', () => {
  function start(options: { lists?: { conversations: ConversationEntry[] }[] } = {}) {
    const lists = options.lists ?? [list];
    let fetches = 0;
    const marked: string[] = [];
    const conversationEvents: string[] = [];
    const actor = createActor(
      chatsMachine.provide({
        actors: {
          session: quiet,
          pageVisibility: quiet,
          serverEvents: quiet,
          fetchConversations: fromPromise(async () => lists[Math.min(fetches++, lists.length - 1)]),
          markRead: fromPromise(async ({ input }: { input: { conversationId: string } }) => {
            marked.push(input.conversationId);
            return { ok: true };
          }),
          deliveries: quiet,
          // The conversation's machines, fetched when the page says one is about to be opened.
          conversationLoader: conversationLoaderMachine.provide({
            actors: {
              loadOwned: fromPromise(async () => ({
                conversation: createMachine({
                  on: { '*': { actions: ({ event }) => conversationEvents.push(event.type) } },
                }),
              })),
            } as never,
          }),
        } as never,
      }),
    ).start();
    /** The messages announced as unread (`chats.unread`, what the notifications actor chimes for): conversation ids. */
    const sounds: string[] = [];
    const announced: { messageId: string; sender: string | null | undefined }[] = [];
    actor.on('chats.unread', (e) => {
      sounds.push(e.message.conversationId);
      announced.push({
        messageId: e.message.id,
        sender: e.conversation?.participants.find((p) => p.user.id === e.message.senderId)?.user.displayName,
      });
    });
    actor.send({ type: 'chats.signedIn', userId: 'me' });
    actor.send({ type: 'chats.viewing', viewing: true });
    loaderOf(actor).send({ type: 'loader.prepare' });
    return { actor, sounds, announced, marked, conversationEvents, fetches: () => fetches };
  }

  /** Signed in, its first list answered; each later fetch waits in `answers` until the test answers it. */
  async function answeredByHand() {
    const answers: ((l: { conversations: ConversationEntry[] }) => void)[] = [];
    const actor = createActor(
      chatsMachine.provide({
        actors: {
          session: quiet,
          pageVisibility: quiet,
          serverEvents: quiet,
          deliveries: quiet,
          markRead: hang,
          conversationLoader: child,
          fetchConversations: fromPromise(() => new Promise((resolve) => answers.push(resolve))),
        } as never,
      }),
    ).start();
    actor.send({ type: 'chats.signedIn', userId: 'me' });
    answers.shift()?.(list);
    await waitFor(actor, (s) => s.context.loaded && atRest(s));
    return { actor, answers };
  }

  it('a pin, a rename or an edit taken while the list is fetched survives an answer read before it', async () => {
    const { actor, answers } = await answeredByHand();
    const order = () => actor.getSnapshot().context.entries.map((e) => e.conversation.id);
    expect(order()).toEqual(['c2', 'c1']);
    // A fetch is out (the 20-s refetch, a reconnection) when the pin's event comes.
    actor.send({ type: 'chats.refresh' });
    actor.send({
      type: 'chats.settings',
      conversationId: 'c1',
      settings: { mutedUntil: null, pinned: true, pinnedAt: '2025-01-01T00:00:00.000Z', archived: false },
    });
    actor.send({ type: 'chats.conversationUpdated', conversation: { ...c2, title: 'Новое имя' } });
    expect(order()).toEqual(['c1', 'c2']);
    // The server read the list before the pin.
    answers.shift()?.(list);
    await waitFor(actor, atRest);
    expect(order()).toEqual(['c1', 'c2']);
    expect(actor.getSnapshot().context.entries[0]?.settings?.pinned).toBe(true);
    expect(actor.getSnapshot().context.entries[1]?.conversation.title).toBe('Новое имя');
    // The next fetch starts afresh: its answer is the truth again (unpinned elsewhere meanwhile).
    actor.send({ type: 'chats.refresh' });
    answers.shift()?.(list);
    await waitFor(actor, atRest);
    expect(order()).toEqual(['c2', 'c1']);
    actor.stop();
  });

  /** The list is in (the conversation's machines were asked for at the start). */
  const ready = (s: Snap) => s.context.loaded;
  const unread = (actor: ReturnType<typeof start>['actor'], id: string) =>
    actor.getSnapshot().context.entries.find((e) => e.conversation.id === id)?.unreadCount;

  it('pinned chats go first in pin order; a muted chat counts unread without a sound', async () => {
    const { actor, sounds } = start();
    await waitFor(actor, ready);
    const order = () => actor.getSnapshot().context.entries.map((e) => e.conversation.id);
    expect(order()).toEqual(['c2', 'c1']);
    actor.send({
      type: 'chats.settings',
      conversationId: 'c1',
      settings: { ...mutedForever, pinned: true, pinnedAt: '2025-01-01T00:00:00.000Z' },
    });
    expect(order()).toEqual(['c1', 'c2']);
    actor.send({ type: 'chats.messageArrived', message: fromAnna });
    expect(unread(actor, 'c1')).toBe(3);
    expect(sounds).toEqual([]);
    actor.send({
      type: 'chats.settings',
      conversationId: 'c1',
      settings: { mutedUntil: null, pinned: false, pinnedAt: null, archived: false },
    });
    actor.send({ type: 'chats.messageArrived', message: message('m9', 'u2', 10) });
    expect(sounds).toEqual(['c1']);
    // Settings of a conversation the list does not have change nothing.
    const before = actor.getSnapshot().context.entries;
    actor.send({ type: 'chats.settings', conversationId: 'c9', settings: mutedForever });
    expect(actor.getSnapshot().context.entries).toBe(before);
  });

  it('a changed group replaces its entry and keeps its unread count; a lost one leaves the list and closes if open', async () => {
    const { actor, sounds } = start();
    await waitFor(actor, ready);
    const entry1 = () => actor.getSnapshot().context.entries.find((e) => e.conversation.id === 'c1');
    actor.send({ type: 'chats.conversationUpdated', conversation: { ...c1, title: 'Дача', isGroup: true } });
    expect(entry1()?.conversation.title).toBe('Дача');
    expect(entry1()?.unreadCount).toBe(2);
    // A SYSTEM entry from someone else orders the list but is neither unread nor announced.
    actor.send({ type: 'chats.messageArrived', message: message('s1', 'u2', 9, { type: 'SYSTEM' }) });
    expect(unread(actor, 'c1')).toBe(2);
    expect(sounds).toEqual([]);
    expect(actor.getSnapshot().context.entries[0].conversation.id).toBe('c1');
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    actor.send({ type: 'chats.conversationRemoved', conversationId: 'c2' });
    expect(actor.getSnapshot().context.selectedId).toBe('c1');
    actor.send({ type: 'chats.conversationRemoved', conversationId: 'c1' });
    expect(actor.getSnapshot().context.selectedId).toBeNull();
    expect(actor.getSnapshot().context.entries).toEqual([]);
    // A conversation updated that the list did not have (it was added on another process a moment ago) is added.
    actor.send({ type: 'chats.conversationUpdated', conversation: c2 });
    expect(actor.getSnapshot().context.entries.map((e) => e.conversation.id)).toEqual(['c2']);
  });

  it("a group's call that is on marks its entry with who is in it, until it ends", async () => {
    const { actor } = start();
    await waitFor(actor, ready);
    const entry1 = () => actor.getSnapshot().context.entries.find((e) => e.conversation.id === 'c1');
    actor.send({ type: 'chats.groupCall', conversationId: 'c1', call: { participantIds: ['u2', 'me'], video: true } });
    expect(entry1()?.groupCall).toEqual({ participantIds: ['u2', 'me'], video: true });
    expect(entry1()?.unreadCount).toBe(2);
    actor.send({ type: 'chats.groupCall', conversationId: 'c1', call: null });
    expect(entry1()?.groupCall).toBeUndefined();
  });

  it('sorts newest first and counts a message from someone else in a closed conversation once, announcing it', async () => {
    const { actor, sounds, announced } = start();
    await waitFor(actor, ready);
    expect(actor.getSnapshot().context.entries.map((e) => e.conversation.id)).toEqual(['c2', 'c1']);
    // message:notify and message:new of one message
    actor.send({ type: 'chats.messageArrived', message: fromAnna });
    actor.send({ type: 'chats.messageArrived', message: fromAnna });
    expect(unread(actor, 'c1')).toBe(3);
    expect(sounds).toEqual(['c1']);
    // With its conversation as the list knows it (the notification names the sender from it).
    expect(announced).toEqual([{ messageId: 'm2', sender: 'Анна' }]);
    expect(actor.getSnapshot().context.entries[0].conversation.messages[0].id).toBe('m2');
    // Own messages neither count nor are announced.
    actor.send({ type: 'chats.messageArrived', message: fromMe });
    expect(unread(actor, 'c1')).toBe(3);
    expect(sounds).toEqual(['c1']);
  });

  it('opening resets the unread count and marks the conversation read; the open one is not announced unless hidden', async () => {
    const { actor, sounds, marked } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    expect(unread(actor, 'c1')).toBe(0);
    await waitFor(actor, () => marked.length === 1);
    expect(marked).toEqual(['c1']);
    actor.send({ type: 'chats.messageArrived', message: fromAnna });
    expect(unread(actor, 'c1')).toBe(0);
    expect(sounds).toEqual([]);
    actor.send({ type: 'chats.visibility', visible: false });
    actor.send({ type: 'chats.messageArrived', message: message('m5', 'u2', 6) });
    expect(unread(actor, 'c1')).toBe(1);
    expect(sounds).toEqual(['c1']);
    // Own receipts (read in this or another tab) lower the count.
    actor.send({ type: 'chats.receipts', conversationId: 'c1', userId: 'me', messageIds: ['m5'] });
    expect(unread(actor, 'c1')).toBe(0);
    // Still selected, but the user is on another page: it counts and is announced.
    actor.send({ type: 'chats.visibility', visible: true });
    actor.send({ type: 'chats.viewing', viewing: false });
    actor.send({ type: 'chats.messageArrived', message: message('m6', 'u2', 7) });
    expect(unread(actor, 'c1')).toBe(1);
    expect(sounds).toEqual(['c1', 'c1']);
  });

  it('the open chat marked «непрочитанное» is marked read again when its tile is clicked; unmarked, it is not', async () => {
    const { actor, marked } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    await waitFor(actor, () => marked.length === 1);
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    const settings = { mutedUntil: null, pinned: false, pinnedAt: null, archived: false };
    actor.send({ type: 'chats.settings', conversationId: 'c1', settings: { ...settings, markedUnread: true } });
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    await waitFor(actor, () => marked.length === 2);
    expect(marked).toEqual(['c1', 'c1']);
    // Still the same conversation: it was not closed and opened again.
    expect(actor.getSnapshot().context.selectedId).toBe('c1');
    expect(actor.getSnapshot().matches({ active: { selection: 'open' } })).toBe(true);
  });

  it("takes own delivered messages (the composer's emitted deliveries) into the list, not to the conversation", async () => {
    const { actor, conversationEvents } = start();
    await waitFor(actor, ready);
    await waitFor(loaderOf(actor), (s) => s.matches({ code: 'here' }));
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    actor.send({ type: 'composer.delivered', message: fromMe, refresh: true });
    // The conversation hears the composer itself (conversation/composer-reports.ts).
    expect(conversationEvents).toEqual([]);
    expect(actor.getSnapshot().context.entries[0].conversation.messages[0].id).toBe('m3');
  });

  it('emits every selection with whether the chat is secret (the address and the composer follow it)', async () => {
    const { actor } = start({ lists: [{ conversations: [entry(c1, 2), entry({ ...c2, secret: true })] }] });
    await waitFor(actor, ready);
    const selected: unknown[] = [];
    actor.on('chats.selected', (e) => selected.push(e));
    actor.send({ type: 'chats.open', conversationId: 'c2' });
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    actor.send({ type: 'chats.close' });
    expect(selected).toEqual([
      { type: 'chats.selected', conversationId: 'c2', secret: true },
      { type: 'chats.selected', conversationId: 'c1', secret: false },
      { type: 'chats.selected', conversationId: null, secret: false },
    ]);
  });

  it("emits the list's secret chats on every fetch and whenever a change alters them (the composer's outbox)", async () => {
    const c3 = conversation('c3', [me, anna], { secret: true, messages: [] });
    const { actor } = start({ lists: [list, { conversations: [entry(c1, 2), entry(c2), entry(c3)] }] });
    const told: unknown[] = [];
    actor.on('chats.secretChats', (e) => told.push(e.conversationIds));
    await waitFor(actor, ready);
    actor.send({ type: 'chats.conversationAdded', conversation: c3 });
    // A change of the list that leaves the secret chats as they are says nothing.
    actor.send({ type: 'chats.conversationUpdated', conversation: { ...c1, title: 'Другое имя' } });
    actor.send({ type: 'chats.refresh' });
    await waitFor(actor, (s) => s.context.entries.length === 3 && atRest(s) && told.length === 3);
    expect(told).toEqual([[], ['c3'], ['c3']]);
  });

  it('a chat opened before its entry came is announced again as secret once the list learns it is (one just created)', async () => {
    const c3 = conversation('c3', [me, anna], { secret: true, messages: [] });
    const { actor } = start({ lists: [list, { conversations: [entry(c1, 2), entry(c2), entry(c3)] }] });
    await waitFor(actor, ready);
    const selected: unknown[] = [];
    actor.on('chats.selected', (e) => selected.push(e));
    actor.send({ type: 'chats.open', conversationId: 'c3' });
    actor.send({ type: 'chats.conversationAdded', conversation: c3 });
    // Learnt once: the refetched list that also holds it announces nothing more.
    actor.send({ type: 'chats.refresh' });
    await waitFor(actor, (s) => s.context.entries.length === 3 && atRest(s));
    expect(selected).toEqual([
      { type: 'chats.selected', conversationId: 'c3', secret: false },
      { type: 'chats.selected', conversationId: 'c3', secret: true },
    ]);
    // The same through a fetched list.
    const other = start({ lists: [list, { conversations: [entry(c1, 2), entry(c2), entry(c3)] }] });
    await waitFor(other.actor, ready);
    const again: unknown[] = [];
    other.actor.on('chats.selected', (e) => again.push(e));
    other.actor.send({ type: 'chats.open', conversationId: 'c3' });
    other.actor.send({ type: 'chats.refresh' });
    await waitFor(other.actor, (s) => s.context.entries.length === 3 && atRest(s));
    expect(again).toEqual([
      { type: 'chats.selected', conversationId: 'c3', secret: false },
      { type: 'chats.selected', conversationId: 'c3', secret: true },
    ]);
    // The one who made it says so when opening it: secret from the first selection.
    const told: unknown[] = [];
    actor.on('chats.selected', (e) => told.push(e));
    actor.send({ type: 'chats.open', conversationId: 'c9', secret: true });
    expect(told).toEqual([{ type: 'chats.selected', conversationId: 'c9', secret: true }]);
  });

  it("a cold load into a chat's address: not known secret or not until the list comes, then announced as it is", async () => {
    for (const [id, secret] of [
      ['c2', true],
      ['c1', false],
    ] as const) {
      const { actor } = start({ lists: [{ conversations: [entry(c1, 2), entry({ ...c2, secret: true })] }] });
      const selected: unknown[] = [];
      actor.on('chats.selected', (e) => selected.push(e));
      // Opened before the list's answer: the composer hands nothing over while it is null.
      actor.send({ type: 'chats.open', conversationId: id });
      expect(selected).toEqual([{ type: 'chats.selected', conversationId: id, secret: null }]);
      await waitFor(actor, ready);
      expect(selected).toEqual([
        { type: 'chats.selected', conversationId: id, secret: null },
        { type: 'chats.selected', conversationId: id, secret },
      ]);
      actor.stop();
    }
  });

  it('updates presence and profile of participants', async () => {
    const { actor } = start();
    await waitFor(actor, ready);
    actor.send({
      type: 'chats.presence',
      userId: 'u2',
      status: 'OFFLINE',
      lastSeenAt: null,
      at: '2025-03-01T12:00:00.000Z',
    });
    actor.send({ type: 'chats.profile', userId: 'u2', avatarUrl: 'emoji:🦊', displayName: 'Аня' });
    const user = actor.getSnapshot().context.entries[1].conversation.participants[1].user;
    expect(user).toMatchObject({
      status: 'OFFLINE',
      lastSeenAt: '2025-03-01T12:00:00.000Z',
      avatarUrl: 'emoji:🦊',
      displayName: 'Аня',
    });
    // A status of one's own (§10.44): set, kept by a profile:update that does not carry it, cleared by one with null.
    const status = { emoji: '🌴', text: 'В отпуске', expiresAt: null };
    const peer = () => actor.getSnapshot().context.entries[1].conversation.participants[1].user;
    actor.send({
      type: 'chats.profile',
      userId: 'u2',
      avatarUrl: 'emoji:🦊',
      displayName: 'Аня',
      customStatus: status,
    });
    expect(peer().customStatus).toEqual(status);
    actor.send({ type: 'chats.profile', userId: 'u2', avatarUrl: 'emoji:🦊', displayName: 'Аня Б.' });
    expect(peer()).toMatchObject({ displayName: 'Аня Б.', customStatus: status });
    actor.send({
      type: 'chats.profile',
      userId: 'u2',
      avatarUrl: 'emoji:🦊',
      displayName: 'Аня Б.',
      customStatus: null,
    });
    expect(peer().customStatus).toBeNull();
    expect(peer().status).toBe('OFFLINE');
  });

  it('refetches the list every 20 s and fetches when a message of an unknown conversation arrives', async () => {
    vi.useFakeTimers();
    const { actor, fetches, announced } = start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches()).toBe(1);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(fetches()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches()).toBe(2);
    actor.send({ type: 'chats.messageArrived', message: unknownConversation });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches()).toBe(3);
    // Announced without a conversation: the list did not know it.
    expect(announced).toEqual([{ messageId: 'x1', sender: undefined }]);
    actor.stop();
    vi.useRealTimers();
  });

  it('a message that arrives while the list is fetched survives an answer read before it, and a reconnection mid-fetch asks again', async () => {
    const { actor, answers } = await answeredByHand();
    actor.send({ type: 'chats.refresh' });
    // The server read the list, then the message committed and its event came before the answer.
    actor.send({ type: 'chats.messageArrived', message: fromAnna });
    answers.shift()?.(list);
    await waitFor(actor, atRest);
    const c1Entry = () => actor.getSnapshot().context.entries.find((e) => e.conversation.id === 'c1');
    expect(c1Entry()?.unreadCount).toBe(3);
    expect(c1Entry()?.conversation.messages[0]?.id).toBe('m2');
    // An answer that has the message already counts it itself: nothing is added twice.
    actor.send({ type: 'chats.refresh' });
    answers.shift()?.({ conversations: [entry({ ...c1, messages: [fromAnna] }, 3), entry(c2)] });
    await waitFor(actor, atRest);
    expect(c1Entry()?.unreadCount).toBe(3);
    // The socket came back while a fetch was out: that answer may predate what it missed, so the list asks again.
    actor.send({ type: 'chats.refresh' });
    actor.send({ type: 'chats.reconnected' });
    expect(answers).toHaveLength(2);
    answers.shift()?.(list);
    answers.shift()?.(list);
    await waitFor(actor, atRest);
    actor.stop();
  });

  it('starts a call in the selected conversation through the call actor', () => {
    const calls: unknown[] = [];
    const callActor = createMachine({ on: { 'call.startOutgoing': { actions: ({ event }) => calls.push(event) } } });
    const app = createActor(
      createMachine({
        invoke: [
          { id: 'call', systemId: 'call', src: callActor },
          {
            id: 'chats',
            systemId: 'chats',
            src: chatsMachine.provide({
              actors: {
                session: quiet,
                pageVisibility: quiet,
                serverEvents: quiet,
                fetchConversations: hang,
                markRead: hang,
                deliveries: quiet,
                conversationLoader: child,
              } as never,
            }),
          },
        ],
      }),
    ).start();
    const chats = app.system.get('chats');
    chats.send({ type: 'chats.signedIn', userId: 'me' });
    chats.send({ type: 'chats.call', video: false }); // nothing selected: nothing to call
    chats.send({ type: 'chats.open', conversationId: 'c1' });
    chats.send({ type: 'chats.call', video: true });
    expect(calls).toEqual([{ type: 'call.startOutgoing', conversationId: 'c1', video: true }]);
    // In a group the call is a room: the call actor opens it for the group.
    chats.send({
      type: 'chats.conversationAdded',
      conversation: conversation('g1', [me, anna], { title: 'Группа', isGroup: true }),
    });
    chats.send({ type: 'chats.open', conversationId: 'g1' });
    chats.send({ type: 'chats.call', video: false });
    expect(calls.at(-1)).toEqual({ type: 'call.startOutgoing', conversationId: 'g1', video: false, group: 'start' });
    app.stop();
  });

  it('a conversation opened before its machines are here starts when they come; a failed fetch waits for «Повторить»', async () => {
    const fetches: { resolve(code: unknown): void; reject(error: unknown): void }[] = [];
    const inputs: unknown[] = [];
    const conversationLogic = createMachine({
      context: ({ input }: { input: unknown }) => {
        inputs.push(input);
        return {};
      },
    });
    const actor = createActor(
      chatsMachine.provide({
        actors: {
          session: quiet,
          pageVisibility: quiet,
          serverEvents: quiet,
          deliveries: quiet,
          fetchConversations: fromPromise(async () => list),
          markRead: fromPromise(async () => ({ ok: true })),
          conversationLoader: conversationLoaderMachine.provide({
            actors: {
              loadOwned: fromPromise(() => new Promise((resolve, reject) => fetches.push({ resolve, reject }))),
            } as never,
          }),
        } as never,
      }),
    ).start();
    actor.send({ type: 'chats.signedIn', userId: 'me' });
    await waitFor(actor, (s) => s.context.loaded);
    const snap = () => actor.getSnapshot();
    const loader = loaderOf(actor);

    actor.send({ type: 'chats.open', conversationId: 'c1' });
    // Selected at once (the address and the list follow); its actor waits for its code.
    expect(snap().context.selectedId).toBe('c1');
    expect(loader.getSnapshot().value).toEqual({ code: 'loading', pane: 'waiting' });
    expect(loader.getSnapshot().children.conversation).toBeUndefined();
    fetches[0].reject(new Error('offline'));
    await waitFor(loader, (s) => s.hasTag(LOADER_TAGS.conversationFailed));
    expect(snap().context.selectedId).toBe('c1');

    // «Повторить» fetches again; a search result in it meanwhile is where it starts.
    loader.send({ type: 'loader.prepare' });
    expect(fetches).toHaveLength(2);
    expect(loader.getSnapshot().hasTag(LOADER_TAGS.conversationFailed)).toBe(false);
    actor.send({ type: 'chats.open', conversationId: 'c1', messageId: 'm1' });
    fetches[1].resolve({ conversation: conversationLogic });
    await waitFor(loader, (s) => s.children.conversation !== undefined);
    expect(inputs).toEqual([{ conversationId: 'c1', userId: 'me', unread: 2, jumpTo: 'm1' }]);

    // Kept: later openings start their actor at once, after signing out and in again too.
    actor.send({ type: 'chats.open', conversationId: 'c2' });
    expect(loader.getSnapshot().children.conversation).toBeDefined();
    actor.send({ type: 'chats.signedOut' });
    expect(loader.getSnapshot().children.conversation).toBeUndefined();
    actor.send({ type: 'chats.signedIn', userId: 'me' });
    actor.send({ type: 'chats.open', conversationId: 'c1' });
    expect(loader.getSnapshot().children.conversation).toBeDefined();
    expect(fetches).toHaveLength(2);
    expect(inputs).toHaveLength(3);
    actor.stop();
  });
});
