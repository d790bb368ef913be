import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { ResponseOf } from '../../../contract/api';
import type { LinkPreview } from '../../../contract/entities';
import { queueRun, requestQueueMachine } from '../../realtime/index';
import { pageBackMachine } from '../pageBack/pageBack.machine';
import { pinsMachine } from '../pins/pins.machine';
import { previewCardId, previewCardMachine } from '../previewCard/previewCard.machine';
import { conversationMachine, type PageInput, type ReactionChange } from './conversation.machine';
import { FIRST_ITEM_INDEX } from './history';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const child = createMachine({});
const input = { conversationId: 'c1', userId: 'me' };

// m0 is far back (found by seeking), m1–m2 the latest page, m3 arrives later.
const m0 = message('m0', 'u2', 0);
const mx = message('mx', 'u2', 5);
const m1 = message('m1', 'u2', 10);
const m2 = message('m2', 'me', 11);
const m3 = message('m3', 'u2', 12);
const mine = message('m4', 'me', 13, { clientMessageId: 'tag-1' });
const elsewhere = message('e1', 'u2', 14, { conversationId: 'c2' });
const page = (messages: (typeof m0)[], hasMore: boolean) => ({ messages, hasMore });
const EDITED_AT = '2025-03-01T11:00:00.000Z';
const card = (status: LinkPreview['status']): LinkPreview => ({
  url: 'https://example.org/',
  status,
  siteName: null,
  title: status === 'ready' ? 'Пример' : null,
  description: null,
  image: null,
});

type Snap = ReturnType<typeof conversationMachine.getInitialSnapshot>;
// Two parallel regions (history paging, refresh) times the message combinations are far too many
// states to walk (and keys must tell every context apart for the replay). So the model does one thing at a
// time: a user or server event only from the freshly loaded page at rest; then only what that started
// (actor answers, a refresh on top of a refresh). Every transition is still taken; how the regions combine
// is the parallel statechart's own guarantee and the tests below check the interesting mixes.
const resting = (s: Snap) => s.matches({ ready: { history: 'idle', sync: 'idle' } });
const fresh = (s: Snap) =>
  s.context.focusedId === null &&
  s.context.messages
    .map((m) => `${m.id}:${m.receipts.length}:${m.editedAt}:${m.reactions.length}:${m.preview?.status ?? ''}`)
    .join() === 'm1:0:null:0:,m2:0:null:0:';
const oneAtATime =
  <T extends { type: string }>(make: () => T[]) =>
  (s: Snap) =>
    resting(s) && fresh(s) ? make() : [];
/** The page-back child with pages from `fetchPage` (the real one: it pages until found). */
const paging = (fetchPage: unknown) => pageBackMachine.provide({ actors: { fetchPage: fetchPage as never } });

describeModel({
  name: 'conversation',
  machine: conversationMachine.provide({
    actors: {
      serverEvents: quiet,
      room: quiet,
      fetchPage: hang,
      deletions: child,
      reactions: child,
      pins: child,
      pageBack: child,
      typing: child,
      readReceipts: child,
      messageEdit: child,
      previewCard: child,
    } as never,
  }),
  // Opened plainly, and at a search result on the first page (m1) or far back (m0).
  // Opened with more unread messages than the first page holds, too.
  inputs: [input, { ...input, jumpTo: 'm1' }, { ...input, jumpTo: 'm0' }, { ...input, unread: 3 }],
  events: {
    'conversation.messageArrived': oneAtATime(() => [{ type: 'conversation.messageArrived', message: m3 }]),
    'conversation.messageSent': oneAtATime(() => [{ type: 'conversation.messageSent', message: mine }]),
    'conversation.messageDeleted': oneAtATime(() => [
      { type: 'conversation.messageDeleted', conversationId: 'c1', messageId: 'm1' },
    ]),
    'conversation.receipts': oneAtATime(() => [
      { type: 'conversation.receipts', conversationId: 'c1', userId: 'u2', messageIds: ['m2'] },
    ]),
    // Also while a page loads (fresh history only, one jump per path).
    'conversation.jumpTo': (s) =>
      fresh(s) &&
      (resting(s) || s.matches({ ready: { history: 'loadingOlder' } }) || s.matches({ ready: { history: 'seeking' } }))
        ? [
            { type: 'conversation.jumpTo', messageId: 'm1' },
            { type: 'conversation.jumpTo', messageId: 'm0' },
          ]
        : [],
    'conversation.delete': oneAtATime(() => [{ type: 'conversation.delete', messageId: 'm2' }]),
    'conversation.messageEdited': oneAtATime(() => [
      {
        type: 'conversation.messageEdited',
        conversationId: 'c1',
        messageId: 'm1',
        content: 'правка',
        editedAt: EDITED_AT,
      },
    ]),
    'edit.saved': oneAtATime(() => [
      { type: 'edit.saved', message: { ...m2, content: 'моя правка', editedAt: EDITED_AT } },
    ]),
    'conversation.reactions': oneAtATime(() => [
      {
        type: 'conversation.reactions',
        conversationId: 'c1',
        messageId: 'm1',
        reactions: [{ emoji: '👍', userIds: ['u2'] }],
      },
    ]),
    'conversation.preview': oneAtATime(() => [
      { type: 'conversation.preview', conversationId: 'c1', messageId: 'm1', preview: card('ready') },
    ]),
    'conversation.thread': oneAtATime(() => [
      {
        type: 'conversation.thread',
        conversationId: 'c1',
        rootId: 'm1',
        thread: { replyCount: 1, lastReplyAt: EDITED_AT, repliers: ['u2'] },
      },
    ]),
    'conversation.poll': oneAtATime(() => [
      {
        type: 'conversation.poll',
        conversationId: 'c1',
        messageId: 'm1',
        poll: {
          question: 'Куда?',
          options: [
            { id: '0', text: 'Кино', votes: 1 },
            { id: '1', text: 'Театр', votes: 0 },
          ],
          multiple: false,
          anonymous: true,
          quiz: false,
          closed: false,
          voterCount: 1,
          version: 1,
        },
      },
    ]),
    'conversation.react': oneAtATime(() => [
      { type: 'conversation.react', messageId: 'm1', emoji: '❤️' },
      { type: 'conversation.react', messageId: 'gone', emoji: '❤️' },
    ]),
    'conversation.loadOlder': oneAtATime(() => [{ type: 'conversation.loadOlder' }]),
    // Hidden for oneself here (gone from the list), or shown again elsewhere (the page is fetched again).
    'conversation.messagesHidden': oneAtATime(() => [
      { type: 'conversation.messagesHidden', conversationId: 'c1', messageIds: ['m1'], hidden: true },
      { type: 'conversation.messagesHidden', conversationId: 'c1', messageIds: ['m1'], hidden: false },
    ]),
    // What concerns the pin bar goes to the child 'pins', which answers a click on the bar with the pin to go to.
    'conversation.pins': oneAtATime(() => [{ type: 'conversation.pins', conversationId: 'c1', pins: [m1, m2] }]),
    'conversation.pin': oneAtATime(() => [{ type: 'conversation.pin', messageId: 'm1', on: true }]),
    'conversation.pinJump': oneAtATime(() => [{ type: 'conversation.pinJump' }]),
    'pins.jumpTo': oneAtATime(() => [{ type: 'pins.jumpTo', messageId: 'm1' }]),
    'conversation.ownSent': oneAtATime(() => [{ type: 'conversation.ownSent' }]),
    'conversation.openImage': oneAtATime(() => [{ type: 'conversation.openImage', messageId: 'm1', index: 1 }]),
    'conversation.closeImage': oneAtATime(() => [{ type: 'conversation.closeImage' }]),
    // The timeline's focus: a message focused, a move among the rows as drawn, and a move with none drawn.
    'conversation.focusMessage': oneAtATime(() => [{ type: 'conversation.focusMessage', messageId: 'm1' }]),
    'conversation.moveFocus': (s) =>
      resting(s) && s.context.focusedId !== 'm2'
        ? [
            { type: 'conversation.moveFocus', move: 'next', ids: ['m1', 'm2'] },
            { type: 'conversation.moveFocus', move: 'last', ids: [] },
          ]
        : [],
    // The queues' reports: the reactions queue's answer (shown unless a later change of the message waits), its
    // failure (refetch), and the deletions queue's, which change nothing.
    'queue.done': oneAtATime(() => [
      {
        type: 'queue.done',
        queue: 'reactions',
        request: { messageId: 'm1', emoji: '❤️', on: true },
        output: { reactions: [{ emoji: '❤️', userIds: ['me'] }] },
        remaining: [],
      },
      {
        type: 'queue.done',
        queue: 'reactions',
        request: { messageId: 'm1', emoji: '❤️', on: true },
        output: { reactions: [{ emoji: '❤️', userIds: ['me'] }] },
        remaining: [{ messageId: 'm1', emoji: '❤️', on: false }],
      },
      { type: 'queue.done', queue: 'deletions', request: { messageId: 'm2' }, output: { ok: true }, remaining: [] },
    ]),
    'queue.failed': oneAtATime(() => [
      {
        type: 'queue.failed',
        queue: 'reactions',
        request: { messageId: 'm1', emoji: '❤️', on: true },
        message: 'Нет связи',
        remaining: [],
      },
      { type: 'queue.failed', queue: 'deletions', request: { messageId: 'm2' }, message: 'Нельзя', remaining: [] },
    ]),
    'conversation.refresh': (s) =>
      (resting(s) && fresh(s)) || s.matches({ ready: { sync: 'refreshing' } })
        ? [{ type: 'conversation.refresh' }]
        : [],
    'conversation.reconnected': (s) =>
      (resting(s) && fresh(s)) || s.matches('failed') ? [{ type: 'conversation.reconnected' }] : [],
    'xstate.done.actor.latest': () => [{ type: 'xstate.done.actor.latest', output: page([m1, m2], true) }],
    'xstate.error.actor.latest': () => [{ type: 'xstate.error.actor.latest', error: new Error('offline') }],
    'xstate.done.actor.older': () => [{ type: 'xstate.done.actor.older', output: page([mx], true) }],
    'xstate.error.actor.older': () => [{ type: 'xstate.error.actor.older', error: new Error('offline') }],
    // Paging back (a quote, a search result far back, the first unread): each page the child hands over (one per
    // path), then its end, the goal found or not.
    'pageBack.page': (s) =>
      s.context.messages.length < 3 && (s.matches('reachingUnread') || s.matches({ ready: { history: 'seeking' } }))
        ? [{ type: 'pageBack.page', page: page([mx], true) }]
        : [],
    'xstate.done.actor.pageBack': () => [
      { type: 'xstate.done.actor.pageBack', output: { found: true } },
      { type: 'xstate.done.actor.pageBack', output: { found: false } },
    ],
    'xstate.done.actor.refresh': () => [{ type: 'xstate.done.actor.refresh', output: page([m2, m3], true) }],
    'xstate.error.actor.refresh': () => [{ type: 'xstate.error.actor.refresh', error: new Error('offline') }],
  },
});

describe('conversation with a fetching actor', () => {
  function start(
    pages: (i: PageInput) => ResponseOf<'messages'>,
    options: { unread?: number; react?: (change: ReactionChange) => Promise<ResponseOf<'react'>> } = {},
  ) {
    const seen: PageInput[] = [];
    const fetchPage = fromPromise(async ({ input }: { input: PageInput }) => {
      seen.push(input);
      return pages(input);
    });
    const actor = createActor(
      conversationMachine.provide({
        actors: {
          serverEvents: quiet,
          room: quiet,
          typing: child,
          readReceipts: child,
          messageEdit: child,
          deletions: child,
          pins: child,
          reactions: options.react ? requestQueueMachine.provide({ actors: { run: queueRun(options.react) } }) : child,
          fetchPage,
          pageBack: paging(fetchPage),
          previewCard: previewCardMachine.provide({ actors: { removePreview: hang as never } }),
        } as never,
      }),
      { input: { ...input, unread: options.unread } },
    ).start();
    return { actor, seen };
  }

  it('emits every jump (a second one to the same quote too), every own send and the open image, keeping none', async () => {
    const { actor } = start(() => page([m1, m2], false));
    await waitFor(actor, (s) => s.matches('ready'));
    const emitted: unknown[] = [];
    actor.on('*', (e) => emitted.push(e));
    const before = actor.getSnapshot().context;
    actor.send({ type: 'conversation.jumpTo', messageId: 'm1' });
    actor.send({ type: 'conversation.jumpTo', messageId: 'm1' });
    actor.send({ type: 'conversation.ownSent' });
    actor.send({ type: 'conversation.openImage', messageId: 'm2', index: 1 });
    actor.send({ type: 'conversation.closeImage' });
    expect(emitted).toEqual([
      { type: 'conversation.scrollTo', messageId: 'm1' },
      { type: 'conversation.scrollTo', messageId: 'm1' },
      { type: 'conversation.toBottom' },
      { type: 'conversation.imageOpened', messageId: 'm2', index: 1 },
      { type: 'conversation.imageClosed' },
    ]);
    expect(actor.getSnapshot().context).toBe(before);
    actor.stop();
  });

  it('keeps the focused message of the timeline and moves it among the rows as drawn, telling the view', async () => {
    const { actor } = start(() => page([m1, m2], false));
    await waitFor(actor, (s) => s.matches('ready'));
    const moved: string[] = [];
    actor.on('conversation.focusMoved', (e) => moved.push(e.messageId));
    const ids = ['m1', 'm2', 'tmp-x'];
    const move = (m: 'previous' | 'next' | 'first' | 'last') =>
      actor.send({ type: 'conversation.moveFocus', move: m, ids });
    move('previous'); // nothing focused yet: the newest
    actor.send({ type: 'conversation.focusMessage', messageId: 'm1' }); // a click
    move('next');
    move('next');
    move('next'); // stays on the last
    move('first');
    move('previous'); // stays on the first
    move('last');
    actor.send({ type: 'conversation.moveFocus', move: 'first', ids: [] }); // nothing drawn: no move
    expect(moved).toEqual(['tmp-x', 'm2', 'tmp-x', 'tmp-x', 'm1', 'm1', 'tmp-x']);
    expect(actor.getSnapshot().context.focusedId).toBe('tmp-x');
    // The focused one gone from the rows (deleted): ↑ and ↓ start again from the newest.
    actor.send({ type: 'conversation.moveFocus', move: 'previous', ids: ['m1', 'm2'] });
    expect(actor.getSnapshot().context.focusedId).toBe('m2');
    actor.stop();
  });

  it('gives each message with a link card its card actor, which follows message:preview and refetched pages', async () => {
    const linked = { ...m1, preview: card('pending') };
    let latest = page([linked, m2], false);
    const { actor } = start(() => latest);
    await waitFor(actor, (s) => s.matches('ready'));
    const cardOf = () =>
      actor.getSnapshot().children[previewCardId('m1')] as ReturnType<typeof createActor<typeof previewCardMachine>>;
    expect(cardOf().getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().children[previewCardId('m2')]).toBeUndefined();
    actor.send({ type: 'conversation.preview', conversationId: 'c1', messageId: 'm1', preview: card('ready') });
    expect(cardOf().getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.messages[0].preview?.title).toBe('Пример');
    // Removed while the socket was down: the page fetched after the reconnection says so.
    latest = page([m1, m2], false);
    actor.send({ type: 'conversation.reconnected' });
    await waitFor(actor, () => cardOf().getSnapshot().value === 'removed');
    expect(actor.getSnapshot().context.messages[0].preview).toBeUndefined();
    actor.send({ type: 'conversation.preview', conversationId: 'c1', messageId: 'm2', preview: null });
    expect(actor.getSnapshot().children[previewCardId('m2')]).toBeUndefined();
  });

  it('loads the latest page, then older pages before the first message, lowering the first item index', async () => {
    const { actor, seen } = start((i) => (i.before ? page([m0, mx], false) : page([m1, m2], true)));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.loadOlder' });
    await waitFor(actor, (s) => s.matches({ ready: { history: 'idle' } }) && s.context.messages.length === 4);
    expect(seen).toEqual([
      { conversationId: 'c1', limit: 50 },
      { conversationId: 'c1', before: 'm1', limit: 50 },
    ]);
    const { messages, hasMore, firstItemIndex } = actor.getSnapshot().context;
    expect(messages.map((m) => m.id)).toEqual(['m0', 'mx', 'm1', 'm2']);
    expect(hasMore).toBe(false);
    expect(firstItemIndex).toBe(FIRST_ITEM_INDEX - 2);
  });

  it('keeps one copy of a message that comes as message:new, message:notify and the send answer', async () => {
    const { actor } = start(() => page([m1], false));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.messageArrived', message: m3 });
    actor.send({ type: 'conversation.messageArrived', message: m3 });
    actor.send({ type: 'conversation.messageSent', message: mine });
    actor.send({ type: 'conversation.messageArrived', message: mine });
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1', 'm3', 'm4']);
  });

  it('seeks a quoted message through older pages and highlights it', async () => {
    const { actor, seen } = start((i) =>
      !i.before
        ? page([m2], true)
        : i.before === 'm2'
          ? page([m1], true)
          : i.before === 'm1'
            ? page([mx], true)
            : page([m0], true),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.jumpTo', messageId: 'm0' });
    const scrolls: string[] = [];
    actor.on('conversation.scrollTo', (e) => scrolls.push(e.messageId));
    await waitFor(actor, () => scrolls.length > 0);
    expect(seen.slice(1).map((i) => [i.before, i.limit])).toEqual([
      ['m2', 200],
      ['m1', 200],
      ['mx', 200],
    ]);
    expect(actor.getSnapshot().context.seekId).toBeNull();
    expect(scrolls).toEqual(['m0']);
    // A second jump to a loaded message scrolls again without fetching.
    actor.send({ type: 'conversation.jumpTo', messageId: 'm0' });
    expect(scrolls).toEqual(['m0', 'm0']);
    expect(seen).toHaveLength(4);
    expect(actor.getSnapshot().matches({ ready: { history: 'idle' } })).toBe(true);
  });

  it('ignores events of other conversations and deletions of messages that are not own', async () => {
    const { actor } = start(() => page([m1, m2], false));
    await waitFor(actor, (s) => s.matches('ready'));
    const before = actor.getSnapshot().context;
    actor.send({ type: 'conversation.messageArrived', message: elsewhere });
    actor.send({ type: 'conversation.messageDeleted', conversationId: 'c2', messageId: 'm1' });
    actor.send({ type: 'conversation.receipts', conversationId: 'c2', userId: 'u2', messageIds: ['m2'] });
    actor.send({ type: 'conversation.delete', messageId: 'm1' }); // u2's message
    expect(actor.getSnapshot().context).toBe(before);
  });

  it('removes own messages at once and asks the server to delete them one after another, a refusal changing nothing', async () => {
    const deleted: string[] = [];
    let answer: () => void = () => {};
    const actor = createActor(
      conversationMachine.provide({
        actors: {
          serverEvents: quiet,
          room: quiet,
          typing: child,
          readReceipts: child,
          messageEdit: child,
          fetchPage: fromPromise(async () => page([m1, m2, mine], false)),
          reactions: child,
          pins: child,
          pageBack: child,
          deletions: requestQueueMachine.provide({
            actors: {
              run: queueRun(({ messageId }: { messageId: string }) => {
                deleted.push(messageId);
                return new Promise((resolve, reject) => {
                  answer = () => (messageId === 'm2' ? reject(new Error('403')) : resolve({ ok: true }));
                });
              }),
            },
          }),
        } as never,
      }),
      { input },
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.delete', messageId: 'm2' });
    actor.send({ type: 'conversation.delete', messageId: 'm4' });
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1']);
    expect(deleted).toEqual(['m2']); // the second waits for the first answer
    const after = actor.getSnapshot().context;
    answer(); // refused: ignored, the message comes back with a refresh
    await vi.waitFor(() => expect(deleted).toHaveLength(2));
    expect(deleted).toEqual(['m2', 'm4']);
    expect(actor.getSnapshot().context).toBe(after);
  });

  it('takes an edit into the message and every quote of it, from the server event and from an own save', async () => {
    const quoting = message('q1', 'me', 12, { replyTo: { id: 'm1', content: 'text m1' } });
    const { actor } = start(() => page([m1, m2, quoting], false));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({
      type: 'conversation.messageEdited',
      conversationId: 'c1',
      messageId: 'm1',
      content: 'новый',
      editedAt: EDITED_AT,
    });
    const byId = () => new Map(actor.getSnapshot().context.messages.map((m) => [m.id, m]));
    expect(byId().get('m1')).toMatchObject({ content: 'новый', editedAt: EDITED_AT });
    expect(byId().get('q1')?.replyTo).toEqual({ id: 'm1', content: 'новый' });
    actor.send({ type: 'edit.saved', message: { ...m2, content: 'моё новое', editedAt: EDITED_AT } });
    expect(byId().get('m2')).toMatchObject({ content: 'моё новое', editedAt: EDITED_AT });
    // Another conversation's edit changes nothing.
    const before = actor.getSnapshot().context.messages;
    actor.send({
      type: 'conversation.messageEdited',
      conversationId: 'c2',
      messageId: 'm1',
      content: 'x',
      editedAt: EDITED_AT,
    });
    expect(actor.getSnapshot().context.messages).toBe(before);
  });

  it('shows a reaction at once, toggles it off with a second click, sends both in order and takes the server answer', async () => {
    const sent: ReactionChange[] = [];
    let answer: (r: ResponseOf<'react'>) => void = () => {};
    const react = (change: ReactionChange) => {
      sent.push(change);
      return new Promise<ResponseOf<'react'>>((r) => {
        answer = r;
      });
    };
    const { actor } = start(() => page([m1, m2], false), { react });
    await waitFor(actor, (s) => s.matches('ready'));
    const reactionsOf = (id: string) => actor.getSnapshot().context.messages.find((m) => m.id === id)?.reactions;
    actor.send({ type: 'conversation.react', messageId: 'm1', emoji: '👍' });
    expect(reactionsOf('m1')).toEqual([{ emoji: '👍', userIds: ['me'] }]);
    actor.send({ type: 'conversation.react', messageId: 'm1', emoji: '👍' });
    expect(reactionsOf('m1')).toEqual([]);
    expect(sent).toEqual([{ messageId: 'm1', emoji: '👍', on: true }]);
    // The first answer is not shown: a later change of the same message is still queued.
    answer({ reactions: [{ emoji: '👍', userIds: ['me'] }] });
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(reactionsOf('m1')).toEqual([]);
    expect(sent[1]).toEqual({ messageId: 'm1', emoji: '👍', on: false });
    answer({ reactions: [{ emoji: '😂', userIds: ['u2'] }] });
    await waitFor(actor, () => reactionsOf('m1')?.length === 1);
    expect(reactionsOf('m1')).toEqual([{ emoji: '😂', userIds: ['u2'] }]);
    actor.send({ type: 'conversation.reactions', conversationId: 'c1', messageId: 'm1', reactions: [] });
    expect(reactionsOf('m1')).toEqual([]);
  });

  it('fetches the latest page again when a reaction change fails, so the server puts the reactions right', async () => {
    const { actor, seen } = start(() => page([m1, m2], false), {
      react: async () => {
        throw new Error('offline');
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.react', messageId: 'm1', emoji: '👍' });
    await waitFor(actor, () => seen.length === 2);
    expect(seen[1]).toEqual({ conversationId: 'c1', limit: 50 });
    await waitFor(actor, (s) => s.matches({ ready: { sync: 'idle' } }));
    expect(actor.getSnapshot().context.messages.find((m) => m.id === 'm1')?.reactions).toEqual([]);
  });

  it('places the unread divider above the first of the messages unread at opening', async () => {
    const m5 = message('m5', 'u2', 14);
    const { actor } = start(() => page([m1, m2, m3, mine, m5], false), { unread: 2 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.unreadFrom).toBe('m3');
    // Refreshes do not move it.
    actor.send({ type: 'conversation.refresh' });
    await waitFor(actor, (s) => s.matches({ ready: { sync: 'idle' } }));
    expect(actor.getSnapshot().context.unreadFrom).toBe('m3');
    const none = start(() => page([m1, m2], false));
    await waitFor(none.actor, (s) => s.matches('ready'));
    expect(none.actor.getSnapshot().context.unreadFrom).toBeNull();
  });

  /** A server of `total` messages from u2 (ids n0 oldest … n{total-1}), paged by `before` and `limit`. */
  function server(total: number) {
    const all = Array.from({ length: total }, (_, i) => message(`n${i}`, 'u2', i));
    return (i: PageInput) => {
      const end = i.before ? all.findIndex((m) => m.id === i.before) : all.length;
      const start = Math.max(0, end - (i.limit ?? 50));
      return page(all.slice(start, end), start > 0);
    };
  }

  it('pages back to the first unread message when there are more than one page holds', async () => {
    const { actor, seen } = start(server(400), { unread: 150 });
    await waitFor(actor, (s) => s.matches('ready'));
    // 50 latest, then one larger page: the 150th unread from the end is in.
    expect(seen.map((p) => p.limit)).toEqual([50, 200]);
    expect(actor.getSnapshot().context.unreadFrom).toBe('n250');
  });

  it('stops at 1,000 loaded messages and puts the divider on the oldest of them', async () => {
    const { actor, seen } = start(server(3000), { unread: 2000 });
    await waitFor(actor, (s) => s.matches('ready'));
    const loaded = actor.getSnapshot().context.messages.length;
    expect(loaded).toBeGreaterThanOrEqual(1000);
    expect(loaded).toBeLessThan(1000 + 200);
    expect(seen.length).toBeGreaterThan(2);
    expect(actor.getSnapshot().context.unreadFrom).toBe(actor.getSnapshot().context.messages[0]?.id);
  });
});

describe('pins and hidden messages', () => {
  function start(pins: (typeof m1)[]) {
    const actor = createActor(
      conversationMachine.provide({
        actors: {
          serverEvents: quiet,
          room: quiet,
          typing: child,
          readReceipts: child,
          messageEdit: child,
          deletions: child,
          reactions: child,
          pageBack: child,
          pins: pinsMachine.provide({
            actors: { pinning: child, fetchPins: fromPromise(async () => ({ pins })) } as never,
          }),
          fetchPage: fromPromise(async () => page([m1, m2, m3], false)),
        } as never,
      }),
      { input },
    ).start();
    return actor;
  }

  it('the bar jumps to the newest pin, then older ones, round; a pin deleted for everyone leaves the bar', async () => {
    const actor = start([m3, m1]);
    const pinsOf = () => actor.getSnapshot().children.pins?.getSnapshot().context.pins ?? [];
    await waitFor(actor, (s) => s.matches('ready') && pinsOf().length === 2);
    const jumps: string[] = [];
    actor.on('conversation.scrollTo', (e) => jumps.push(e.messageId));
    actor.send({ type: 'conversation.pinJump' });
    actor.send({ type: 'conversation.pinJump' });
    actor.send({ type: 'conversation.pinJump' });
    expect(jumps).toEqual(['m3', 'm1', 'm3']);
    actor.send({ type: 'conversation.messageDeleted', conversationId: 'c1', messageId: 'm3' });
    expect(pinsOf().map((m) => m.id)).toEqual(['m1']);
    actor.send({ type: 'conversation.pins', conversationId: 'c2', pins: [] });
    expect(pinsOf()).toHaveLength(1);
  });

  it('messages hidden for oneself leave the list; other conversations are not touched', async () => {
    const actor = start([]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'conversation.messagesHidden', conversationId: 'c2', messageIds: ['m1'], hidden: true });
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    actor.send({ type: 'conversation.messagesHidden', conversationId: 'c1', messageIds: ['m1', 'm3'], hidden: true });
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m2']);
  });
});
