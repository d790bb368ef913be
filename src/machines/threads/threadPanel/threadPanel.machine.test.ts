import { describe, expect, it } from 'vitest';
import { type ActorRefFrom, createActor, createMachine, emit, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { Message } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { threadPanelMachine } from './threadPanel.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;

const msg = (id: string, at: string, extra: Partial<Message> = {}): Message => ({
  id,
  conversationId: 'g1',
  senderId: 'u2',
  type: 'TEXT',
  content: id,
  createdAt: at,
  deletedAt: null,
  editedAt: null,
  clientMessageId: null,
  replyTo: null,
  attachments: [],
  receipts: [],
  reactions: [],
  ...extra,
});
const root = msg('r1', '2026-01-01T10:00:00.000Z');
const reply = (id: string, minute: number) =>
  msg(id, `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`, { threadRootId: 'r1' });
const summary = { replyCount: 3, lastReplyAt: '2026-01-01T10:03:00.000Z', repliers: ['u2'] };
type Snap = {
  context: { draft: string; hasMore: boolean; replies: Message[]; following: boolean; quote: string | null };
};
const AT = '2026-01-01T10:30:00.000Z';
const file = (name: string, size: number) => Object.assign(new Blob([new Uint8Array(size)]), { name });

describeModel({
  name: 'threadPanel',
  machine: threadPanelMachine.provide({
    actors: { serverEvents: silent, ownReplies: silent, load: hang, follow: hang, markRead: hang },
  }),
  inputs: [
    { conversationId: 'g1', rootId: 'r1' },
    { conversationId: 'g1', rootId: 'r1', draft: { text: 'начато', quote: null } },
  ],
  contextKey: (c) =>
    [
      c.draft,
      c.hasMore,
      c.replies.map((m: Message) => m.id).join(','),
      c.following,
      c.error,
      c.root?.thread ? 1 : 0,
      c.quote,
    ].join('|'),
  events: {
    'thread.input': (s) => ((s as Snap).context.draft ? [] : [{ type: 'thread.input', text: 'Согласен' }]),
    'thread.reply': (s) =>
      (s as Snap).context.replies.length > 2
        ? []
        : [
            { type: 'thread.reply', message: reply('live', 9), thread: summary },
            { type: 'thread.reply', message: msg('other', '2026-01-01T10:09:00.000Z'), thread: summary },
          ],
    'thread.sent': (s) =>
      (s as Snap).context.replies.some((m) => m.id === 'mine')
        ? []
        : [
            { type: 'thread.sent', message: { ...reply('mine', 5), senderId: 'me' } },
            { type: 'thread.sent', message: msg('elsewhere', '2026-01-01T10:09:00.000Z', { threadRootId: 'r9' }) },
          ],
    'thread.follow': () => [{ type: 'thread.follow', follow: true }],
    'thread.deleted': (s) =>
      (s as Snap).context.replies.some((m) => m.id === 'a') ? [{ type: 'thread.deleted', messageId: 'a' }] : [],
    // Only with text (an empty send changes nothing and would stand for the one that hands the text over).
    'thread.send': (s) => ((s as Snap).context.draft ? [{ type: 'thread.send', at: AT, mentions: ['u3'] }] : []),
    'thread.attach': () => [
      { type: 'thread.attach', files: [file('plan.txt', 4)], at: AT },
      { type: 'thread.attach', files: [], at: AT },
    ],
    'thread.quote': (s) =>
      (s as Snap).context.quote
        ? [{ type: 'thread.quote', messageId: null }]
        : [
            { type: 'thread.quote', messageId: 'a' },
            { type: 'thread.quote', messageId: 'r1' },
          ],
    'xstate.done.actor.load': () => [
      {
        type: 'xstate.done.actor.load',
        output: { root, messages: [reply('a', 2), reply('b', 3)], hasMore: true, following: false },
      },
    ],
    'xstate.error.actor.load': () => [
      { type: 'xstate.error.actor.load', error: new RequestFailure(403, 'Обсуждения в этой группе выключены') },
    ],
    'xstate.done.actor.loadMore': () => [
      {
        type: 'xstate.done.actor.loadMore',
        output: { root, messages: [reply('z', 1)], hasMore: false, following: false },
      },
    ],
    'xstate.error.actor.loadMore': () => [{ type: 'xstate.error.actor.loadMore', error: new Error('offline') }],
    'xstate.done.actor.follow': () => [{ type: 'xstate.done.actor.follow', output: { following: true } }],
    'xstate.error.actor.follow': () => [{ type: 'xstate.error.actor.follow', error: new Error('offline') }],
    'xstate.error.actor.markRead': () => [{ type: 'xstate.error.actor.markRead', error: new Error('offline') }],
  },
});

/**
 * The panel under a parent that also runs a stand-in composer (systemId 'composer'): what the panel hands it is
 * recorded, and `deliver` makes it emit `composer.delivered` as the real one does once the server has a reply.
 */
function start(draft?: { text: string; quote: string | null }) {
  const handed: { type: string; [k: string]: unknown }[] = [];
  const reads: string[] = [];
  const composer = createMachine({
    on: {
      '*': { actions: ({ event }) => handed.push(event) },
      deliver: {
        actions: emit(({ event }) => ({ type: 'composer.delivered', message: event.message, refresh: false })),
      },
    },
  });
  const panel = threadPanelMachine.provide({
    actors: {
      serverEvents: silent,
      load: fromPromise(async ({ input }: { input: { rootId: string; before?: string } }) =>
        input.before
          ? { root, messages: [reply('z', 1)], hasMore: false, following: false }
          : { root, messages: [reply('a', 2), reply('b', 3)], hasMore: true, following: false },
      ) as never,
      follow: fromPromise(async ({ input }: { input: { follow: boolean } }) => ({
        following: input.follow,
      })) as never,
      markRead: fromPromise(async ({ input }: { input: { rootId: string } }) => {
        reads.push(input.rootId);
        return { ok: true };
      }) as never,
    },
  });
  const app = createActor(
    createMachine({
      invoke: [
        { id: 'composer', systemId: 'composer', src: composer },
        { id: 'panel', systemId: 'threadPanel', src: panel, input: { conversationId: 'g1', rootId: 'r1', draft } },
      ],
    }),
  ).start();
  const actor = app.system.get('threadPanel') as ActorRefFrom<typeof threadPanelMachine>;
  const deliver = (message: Message) => app.system.get('composer').send({ type: 'deliver', message });
  const of = (type: string) => handed.filter((e) => e.type === type);
  return { actor, handed: () => of('composer.threadReply'), drafts: () => of('composer.threadDraft'), reads, deliver };
}
const idle = (s: { matches(v: unknown): boolean }) => s.matches({ open: 'shown' });

describe('threadPanel with a server', () => {
  it('loads, pages back, hands the trimmed text to the composer and takes it back delivered; live replies of its thread only', async () => {
    const { actor, handed, reads, deliver } = start();
    await waitFor(actor, idle);
    expect(reads).toEqual(['r1']);
    actor.send({ type: 'thread.more' });
    await waitFor(actor, (s) => idle(s) && !s.context.hasMore);
    expect(actor.getSnapshot().context.replies.map((m) => m.id)).toEqual(['z', 'a', 'b']);
    actor.send({ type: 'thread.send', at: AT }); // nothing typed: nothing goes
    actor.send({ type: 'thread.input', text: '  Согласен  ' });
    actor.send({ type: 'thread.send', at: AT, mentions: ['u3'] });
    expect(actor.getSnapshot().context.draft).toBe('');
    expect(handed()).toEqual([
      {
        type: 'composer.threadReply',
        conversationId: 'g1',
        rootId: 'r1',
        part: { kind: 'text', content: 'Согласен', replyTo: null, mentions: ['u3'] },
        at: AT,
      },
    ]);
    deliver(msg('main', '2026-01-01T10:04:00.000Z')); // the timeline's own message: not here
    deliver(reply('mine', 5));
    expect(actor.getSnapshot().context.following).toBe(true);
    actor.send({ type: 'thread.reply', message: msg('main', '2026-01-01T10:09:00.000Z'), thread: summary });
    actor.send({ type: 'thread.reply', message: reply('live', 9), thread: summary });
    const c = actor.getSnapshot().context;
    expect(c.replies.map((m) => m.id)).toEqual(['z', 'a', 'b', 'mine', 'live']);
    expect(c.root?.thread).toEqual(summary);
    actor.send({ type: 'thread.follow', follow: false });
    await waitFor(actor, (s) => idle(s) && !s.context.following);
  });

  it('hands a reply’s markers over as formatting, left out of its text', async () => {
    const { actor, handed } = start();
    await waitFor(actor, idle);
    actor.send({ type: 'thread.input', text: '**да** и `код`' });
    actor.send({ type: 'thread.send', at: AT });
    expect(handed()[0]?.part).toEqual({
      kind: 'text',
      content: 'да и код',
      replyTo: null,
      entities: [
        { type: 'bold', offset: 0, length: 2 },
        { type: 'code', offset: 5, length: 3 },
      ],
    });
  });

  it("a reply deleted elsewhere leaves the panel and the root's summary follows; another thread's is ignored", async () => {
    const { actor } = start();
    await waitFor(actor, idle);
    const one = { replyCount: 1, lastReplyAt: '2026-01-01T10:02:00.000Z', repliers: ['u2'] };
    actor.send({ type: 'thread.deleted', messageId: 'x', rootId: 'r9', thread: { ...one, replyCount: 9 } });
    expect(actor.getSnapshot().context.root?.thread).toBeUndefined();
    actor.send({ type: 'thread.deleted', messageId: 'b', rootId: 'r1', thread: one });
    const c = actor.getSnapshot().context;
    expect(c.replies.map((m) => m.id)).toEqual(['a']);
    expect(c.root?.thread).toEqual(one);
  });

  it('closing ends the actor and says which thread', async () => {
    const { actor } = start();
    const closed: unknown[] = [];
    actor.on('thread.closed', (e) => closed.push(e));
    actor.send({ type: 'thread.close' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(closed).toEqual([{ type: 'thread.closed', rootId: 'r1' }]);
  });
});

describe('threadPanel composer: files and quotes', () => {
  it('starts from the kept draft and keeps every change of the text and quote in the composer’s drafts', async () => {
    const { actor, drafts } = start({ text: 'начато', quote: 'a' });
    await waitFor(actor, idle);
    expect(actor.getSnapshot().context).toMatchObject({ draft: 'начато', quote: 'a' });
    actor.send({ type: 'thread.input', text: 'начато вчера' });
    actor.send({ type: 'thread.quote', messageId: null });
    actor.send({ type: 'thread.send', at: AT });
    expect(drafts().map((e) => e.draft)).toEqual([
      { text: 'начато вчера', replyTo: { id: 'a', content: 'a' } },
      { text: 'начато вчера', replyTo: null },
      { text: '', replyTo: null },
    ]);
  });

  it('hands picked files at once with their caption and the quote of a reply of this thread, keeping the text', async () => {
    const { actor, handed } = start();
    await waitFor(actor, idle);
    const plan = file('plan.txt', 4);
    actor.send({ type: 'thread.input', text: 'черновик' });
    actor.send({ type: 'thread.quote', messageId: 'r1' }); // the root is not of the thread
    expect(actor.getSnapshot().context.quote).toBeNull();
    actor.send({ type: 'thread.quote', messageId: 'a' });
    actor.send({ type: 'thread.attach', files: [], at: AT });
    actor.send({ type: 'thread.attach', files: [plan], at: AT, caption: 'См. план' });
    expect(handed()).toEqual([
      {
        type: 'composer.threadReply',
        conversationId: 'g1',
        rootId: 'r1',
        part: { kind: 'files', files: [plan], caption: 'См. план', replyTo: { id: 'a', content: 'a' } },
        at: AT,
      },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ quote: null, draft: 'черновик' });
  });
});
