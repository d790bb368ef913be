import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { Message } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { fileTooLargeText } from '../../../contract/limits';
import { THREAD_SEND_FAILED, THREAD_TAGS, threadPanelMachine } from './threadPanel.machine';

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
  context: {
    draft: string;
    hasMore: boolean;
    replies: Message[];
    following: boolean;
    files: Blob[];
    quote: string | null;
    uploadLimitBytes: number | null;
  };
};
const file = (name: string, size: number) => Object.assign(new Blob([new Uint8Array(size)]), { name });
const upload = { url: '/uploads/0123456789abcdef0123456789abcdef', type: 'FILE' as const };

describeModel({
  name: 'threadPanel',
  machine: threadPanelMachine.provide({
    actors: {
      serverEvents: silent,
      load: hang,
      send: hang,
      follow: hang,
      markRead: hang,
      loadUploadLimit: hang,
      upload: silent,
    },
  }),
  inputs: [{ conversationId: 'g1', rootId: 'r1' }],
  contextKey: (c) =>
    [
      c.draft,
      c.hasMore,
      c.replies.map((m: Message) => m.id).join(','),
      c.following,
      c.error,
      c.root?.thread ? 1 : 0,
      c.files.length,
      c.uploaded.length,
      c.progress,
      c.quote,
      c.uploadLimitBytes,
      c.mentions.join(','),
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
    'thread.follow': () => [{ type: 'thread.follow', follow: true }],
    'thread.deleted': (s) =>
      (s as Snap).context.replies.some((m) => m.id === 'a') ? [{ type: 'thread.deleted', messageId: 'a' }] : [],
    'thread.send': () => [{ type: 'thread.send', mentions: ['u3'] }],
    'thread.attach': (s) =>
      (s as Snap).context.files.length > 0
        ? []
        : [
            { type: 'thread.attach', files: [file('plan.txt', 4)] },
            ...((s as Snap).context.uploadLimitBytes ? [{ type: 'thread.attach', files: [file('big.bin', 16)] }] : []),
          ],
    'thread.detach': (s) => ((s as Snap).context.files.length > 0 ? [{ type: 'thread.detach', index: 0 }] : []),
    'thread.quote': (s) =>
      (s as Snap).context.quote
        ? [{ type: 'thread.quote', messageId: null }]
        : [
            { type: 'thread.quote', messageId: 'a' },
            { type: 'thread.quote', messageId: 'r1' },
          ],
    'thread.uploadProgress': () => [{ type: 'thread.uploadProgress', percent: 50 }],
    'thread.uploaded': () => [{ type: 'thread.uploaded', attachments: [upload] }],
    'thread.uploadFailed': () => [{ type: 'thread.uploadFailed', message: 'Файл не загрузился' }],
    'xstate.done.actor.loadUploadLimit': (s) =>
      (s as Snap).context.uploadLimitBytes ? [] : [{ type: 'xstate.done.actor.loadUploadLimit', output: 8 }],
    'xstate.error.actor.loadUploadLimit': () => [{ type: 'xstate.error.actor.loadUploadLimit', error: new Error('x') }],
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
    'xstate.done.actor.send': () => [{ type: 'xstate.done.actor.send', output: { message: reply('mine', 5) } }],
    'xstate.error.actor.send': () => [{ type: 'xstate.error.actor.send', error: new Error('offline') }],
    'xstate.done.actor.follow': () => [{ type: 'xstate.done.actor.follow', output: { following: true } }],
    'xstate.error.actor.follow': () => [{ type: 'xstate.error.actor.follow', error: new Error('offline') }],
    'xstate.error.actor.markRead': () => [{ type: 'xstate.error.actor.markRead', error: new Error('offline') }],
  },
});

function start(options: { failSend?: boolean; failUpload?: boolean } = {}) {
  const sent: unknown[] = [];
  const reads: string[] = [];
  const actor = createActor(
    threadPanelMachine.provide({
      actors: {
        serverEvents: silent,
        load: fromPromise(async ({ input }: { input: { rootId: string; before?: string } }) =>
          input.before
            ? { root, messages: [reply('z', 1)], hasMore: false, following: false }
            : { root, messages: [reply('a', 2), reply('b', 3)], hasMore: true, following: false },
        ) as never,
        send: fromPromise(async ({ input }: { input: unknown }) => {
          sent.push(input);
          if (options.failSend) throw new Error('offline');
          return { message: reply('mine', 5) };
        }) as never,
        follow: fromPromise(async ({ input }: { input: { follow: boolean } }) => ({
          following: input.follow,
        })) as never,
        loadUploadLimit: fromPromise(async () => 8) as never,
        upload: fromCallback(({ sendBack }) => {
          sendBack({ type: 'thread.uploadProgress', percent: 50 });
          sendBack(
            options.failUpload
              ? { type: 'thread.uploadFailed', message: 'Файл не загрузился' }
              : { type: 'thread.uploaded', attachments: [upload] },
          );
        }) as never,
        markRead: fromPromise(async ({ input }: { input: { rootId: string } }) => {
          reads.push(input.rootId);
          return { ok: true };
        }) as never,
      },
    }),
    { input: { conversationId: 'g1', rootId: 'r1' } },
  ).start();
  return { actor, sent, reads };
}
const idle = (s: { matches(v: unknown): boolean }) => s.matches({ open: 'shown' });

describe('threadPanel with a server', () => {
  it('loads, pages back, sends the trimmed text and follows; live replies of its thread only', async () => {
    const { actor, sent, reads } = start();
    await waitFor(actor, idle);
    expect(reads).toEqual(['r1']);
    actor.send({ type: 'thread.more' });
    await waitFor(actor, (s) => idle(s) && !s.context.hasMore);
    expect(actor.getSnapshot().context.replies.map((m) => m.id)).toEqual(['z', 'a', 'b']);
    actor.send({ type: 'thread.send' }); // nothing typed: stays
    expect(actor.getSnapshot().hasTag(THREAD_TAGS.sending)).toBe(false);
    actor.send({ type: 'thread.input', text: '  Согласен  ' });
    actor.send({ type: 'thread.send', mentions: ['u3'] });
    await waitFor(actor, (s) => idle(s) && s.context.draft === '');
    expect(sent).toEqual([
      { conversationId: 'g1', rootId: 'r1', content: 'Согласен', mentions: ['u3'], attachments: [], replyToId: null },
    ]);
    expect(actor.getSnapshot().context.following).toBe(true);
    actor.send({ type: 'thread.reply', message: msg('main', '2026-01-01T10:09:00.000Z'), thread: summary });
    actor.send({ type: 'thread.reply', message: reply('live', 9), thread: summary });
    const c = actor.getSnapshot().context;
    expect(c.replies.map((m) => m.id)).toEqual(['z', 'a', 'b', 'mine', 'live']);
    expect(c.root?.thread).toEqual(summary);
    actor.send({ type: 'thread.follow', follow: false });
    await waitFor(actor, (s) => idle(s) && !s.context.following);
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

  it('keeps the draft when a send fails, and says so', async () => {
    const { actor } = start({ failSend: true });
    await waitFor(actor, idle);
    actor.send({ type: 'thread.input', text: 'Ответ' });
    actor.send({ type: 'thread.send' });
    await waitFor(actor, (s) => idle(s) && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ draft: 'Ответ', error: THREAD_SEND_FAILED });
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
  it('refuses a file over the limit before any upload, then sends the others uploaded, captioned, quoting a reply', async () => {
    const { actor, sent } = start();
    await waitFor(actor, (s) => idle(s) && s.context.uploadLimitBytes === 8);
    actor.send({ type: 'thread.attach', files: [file('big.bin', 16)] });
    expect(actor.getSnapshot().context).toMatchObject({ files: [], error: fileTooLargeText(8) });
    actor.send({ type: 'thread.attach', files: [file('plan.txt', 4)] });
    actor.send({ type: 'thread.quote', messageId: 'r1' }); // the root is not of the thread
    expect(actor.getSnapshot().context.quote).toBeNull();
    actor.send({ type: 'thread.quote', messageId: 'a' });
    actor.send({ type: 'thread.send' });
    await waitFor(actor, (s) => idle(s) && s.context.files.length === 0);
    expect(sent).toEqual([
      { conversationId: 'g1', rootId: 'r1', content: '', mentions: [], attachments: [upload], replyToId: 'a' },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ quote: null, uploaded: [], progress: null, error: null });
  });

  it('a failed upload says why and keeps the files; nothing is sent', async () => {
    const { actor, sent } = start({ failUpload: true });
    await waitFor(actor, idle);
    actor.send({ type: 'thread.attach', files: [file('plan.txt', 4)] });
    actor.send({ type: 'thread.send' });
    await waitFor(actor, (s) => idle(s) && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Файл не загрузился', progress: null });
    expect(actor.getSnapshot().context.files).toHaveLength(1);
    expect(sent).toEqual([]);
  });
});
