import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { message } from '../../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../../tests/model/harness';
import type { Attachment } from '../../../../contract/entities';
import { type ComposerActorRef, type ComposerContext, composerMachine } from './composer.machine';
import { FILES_LOST, type OutboxItem, UPLOAD_FAILED } from './outbox';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const input = { userId: 'me', tag: 't' };
const AT = '2025-03-01T10:00:00.000Z';

const photo = new File(['png'], 'photo.png', { type: 'image/png' });
const notes = new File(['text'], 'notes.txt', { type: 'text/plain' });
const voice = new Blob(['opus'], { type: 'audio/webm;codecs=opus' });
const attachmentOf = (f: File): Attachment => ({
  url: `/uploads/${f.name}`,
  type: f.type.startsWith('image/') ? 'IMAGE' : 'FILE',
  name: f.name,
  size: f.size,
  width: null,
  height: null,
});

const textItem = (n: number, over: Partial<OutboxItem> = {}): OutboxItem => ({
  id: `tmp-old-${n}`,
  clientMessageId: `old-${n}`,
  conversationId: 'c1',
  kind: 'text',
  content: `старое ${n}`,
  replyTo: null,
  files: [],
  status: 'failed',
  error: null,
  retryable: true,
  createdAt: AT,
  ...over,
});
const lostUpload = textItem(3, {
  kind: 'files',
  content: '',
  files: [{ name: 'big.zip', size: 9, mime: 'application/zip', progress: 40, file: null, attachment: null }],
  status: 'uploading',
});

type Snap = ReturnType<typeof composerMachine.getInitialSnapshot>;
const ctx = (s: Snap) => s.context as ComposerContext;
// Nothing waiting and nothing sent yet: one send per path keeps the counter (and so the states) bounded.
const calm = (s: Snap) => ctx(s).outbox.length === 0 && ctx(s).seq === 0;
const firstFailed = (s: Snap) => ctx(s).outbox.find((i) => i.status === 'failed');
const active = (s: Snap) => ctx(s).outbox.find((i) => i.id === ctx(s).activeId);

describeModel({
  name: 'composer',
  machine: composerMachine.provide({
    actors: { serverEvents: quiet, outboxStore: quiet, loadOutbox: hang, upload: quiet, sendMessage: hang } as never,
  }),
  inputs: [input],
  // Every change to the text, the reply and the conversation only while the outbox is empty, and one send at a
  // time: enough for every transition, few enough states to walk (the queue order has its own tests below).
  events: {
    'composer.focusConversation': (s) =>
      calm(s) && !ctx(s).text ? [{ type: 'composer.focusConversation', conversationId: ctx(s).conversationId ? null : 'c1' }] : [],
    'composer.input': (s) => (calm(s) ? [{ type: 'composer.input', text: ctx(s).text ? '' : '  привет ' }] : []),
    'composer.reply': (s) =>
      calm(s) && !ctx(s).replyTo ? [{ type: 'composer.reply', messageId: 'm1', content: 'исходное сообщение' }] : [],
    'composer.clearReply': (s) => (ctx(s).replyTo ? [{ type: 'composer.clearReply' }] : []),
    'composer.submit': (s) => (calm(s) ? [{ type: 'composer.submit', at: AT }] : []),
    'composer.attach': (s) =>
      calm(s) && ctx(s).conversationId && !ctx(s).text && !ctx(s).replyTo
        ? [
            { type: 'composer.attach', files: [photo], at: AT },
            { type: 'composer.attach', files: [photo, notes], at: AT },
          ]
        : [],
    'recorder.recorded': (s) =>
      calm(s) && ctx(s).conversationId && !ctx(s).text && !ctx(s).replyTo
        ? [{ type: 'recorder.recorded', recording: { file: voice, durationMs: 3000, waveform: [10, 80, 40], at: AT } }]
        : [],
    'composer.sendText': (s) => (calm(s) ? [{ type: 'composer.sendText', conversationId: 'c2', text: ' в звонке ', at: AT }] : []),
    'composer.retry': (s) => {
      const item = firstFailed(s);
      return item ? [{ type: 'composer.retry', id: item.id }] : [];
    },
    'composer.remove': (s) => ctx(s).outbox.slice(0, 1).map((i) => ({ type: 'composer.remove', id: i.id })),
    'composer.reconnected': (s) => (firstFailed(s) ? [{ type: 'composer.reconnected' }] : []),
    'upload.progress': (s) => (active(s)?.files.some((f) => f.progress === 50) ? [] : [{ type: 'upload.progress', percent: 50 }]),
    'upload.done': (s) => {
      const file = active(s)?.files.find((f) => !f.attachment)?.file as File | undefined;
      return file ? [{ type: 'upload.done', attachment: attachmentOf(file) }] : [];
    },
    'upload.failed': () => [{ type: 'upload.failed', message: UPLOAD_FAILED }],
    'xstate.done.actor.loadOutbox': () => [
      { type: 'xstate.done.actor.loadOutbox', output: [] },
      { type: 'xstate.done.actor.loadOutbox', output: [textItem(1), lostUpload] },
    ],
    'xstate.error.actor.loadOutbox': () => [{ type: 'xstate.error.actor.loadOutbox', error: new Error('storage') }],
    'xstate.done.actor.sendMessage': (s) => [
      {
        type: 'xstate.done.actor.sendMessage',
        output: { message: message('m9', 'me', 9, { clientMessageId: active(s)?.clientMessageId ?? null }) },
      },
    ],
    'xstate.error.actor.sendMessage': () => [
      { type: 'xstate.error.actor.sendMessage', error: new Error('offline') },
      { type: 'xstate.error.actor.sendMessage', error: { retryable: false, message: 'Ответить можно только на сообщение из этой беседы' } },
    ],
  },
});

describe('composer outbox', () => {
  function start(options: {
    stored?: OutboxItem[];
    send?: (body: unknown) => Promise<unknown>;
    upload?: (file: File, progress: (p: number) => void) => Promise<Attachment>;
  }) {
    const bodies: unknown[] = [];
    const saved: OutboxItem[][] = [];
    /** What the composer tells its parent (the chats actor in the app). */
    const told: { type: string }[] = [];
    const composer = composerMachine.provide({
        actors: {
          serverEvents: quiet,
          loadOutbox: fromPromise(async () => options.stored ?? []),
          outboxStore: fromCallback(({ receive }) => {
            receive((e: { type: string; items?: OutboxItem[] }) => saved.push(e.items ?? []));
          }),
          sendMessage: fromPromise(async ({ input }) => {
            bodies.push(input);
            return (options.send ?? (async () => ({ message: message('m9', 'me', 9) })))(input);
          }),
          upload: fromCallback(({ input, sendBack }) => {
            const up = options.upload ?? (async (f: File) => attachmentOf(f));
            up((input as { file: File }).file, (percent) => sendBack({ type: 'upload.progress', percent }))
              .then((attachment) => sendBack({ type: 'upload.done', attachment }))
              .catch(() => sendBack({ type: 'upload.failed', message: UPLOAD_FAILED }));
          }),
        } as never,
      });
    const parent = createActor(
      createMachine({
        invoke: { id: 'composer', src: composer, input },
        on: { '*': { actions: ({ event }) => told.push(event) } },
      }),
    ).start();
    const actor = parent.getSnapshot().children.composer as ComposerActorRef;
    return { actor, bodies, saved, told };
  }

  it('sends trimmed text with the reply and a clientMessageId, then clears both', async () => {
    const { actor, bodies, told } = start({});
    const sent = () => told.filter((e) => e.type === 'composer.sent');
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.reply', messageId: 'm1', content: 'исходное' });
    actor.send({ type: 'composer.input', text: '   ' });
    actor.send({ type: 'composer.submit', at: AT });
    expect(bodies).toEqual([]); // whitespace only is not sent
    actor.send({ type: 'composer.input', text: '  Привет!  ' });
    actor.send({ type: 'composer.submit', at: AT });
    expect(actor.getSnapshot().context).toMatchObject({ text: '', replyTo: null });
    expect(sent()).toEqual([{ type: 'composer.sent', conversationId: 'c1' }]);
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(told.filter((e) => e.type === 'composer.delivered')).toEqual([
      { type: 'composer.delivered', message: message('m9', 'me', 9), refresh: false },
    ]);
    expect(bodies).toEqual([
      { conversationId: 'c1', type: 'TEXT', content: 'Привет!', replyToId: 'm1', clientMessageId: 't-1' },
    ]);
  });

  it('sends a recording from its recorder as a VOICE message with its duration and waveform', async () => {
    const { actor, bodies } = start({});
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'recorder.recorded', recording: { file: voice, durationMs: 3200, waveform: [5, 100, 40], at: AT } });
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(bodies).toEqual([
      {
        conversationId: 'c1',
        type: 'VOICE',
        content: '',
        replyToId: null,
        clientMessageId: 't-1',
        attachments: [{ url: '/uploads/voice.webm', type: 'FILE' }],
        voice: { durationMs: 3200, waveform: [5, 100, 40] },
      },
    ]);
  });

  it("sends the call chat's text to the call's conversation without touching the draft", async () => {
    const { actor, bodies } = start({});
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'черновик' });
    actor.send({ type: 'composer.sendText', conversationId: 'c2', text: '   ', at: AT });
    actor.send({ type: 'composer.sendText', conversationId: 'c2', text: ' Слышно? ', at: AT });
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(actor.getSnapshot().context.text).toBe('черновик');
    expect(bodies).toEqual([{ conversationId: 'c2', type: 'TEXT', content: 'Слышно?', replyToId: null, clientMessageId: 't-1' }]);
  });

  it('sends queued messages one after another in order', async () => {
    const release: (() => void)[] = [];
    const { actor, bodies } = start({
      send: (body) => new Promise((r) => release.push(() => r({ message: message(`s-${(body as { content: string }).content}`, 'me', 1) }))),
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    for (const text of ['один', 'два', 'три']) {
      actor.send({ type: 'composer.input', text });
      actor.send({ type: 'composer.submit', at: AT });
    }
    expect(actor.getSnapshot().context.outbox.map((i) => i.status)).toEqual(['sending', 'queued', 'queued']);
    for (let i = 0; i < 3; i++) {
      await waitFor(actor, () => release.length === i + 1);
      release[i]();
    }
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(bodies.map((b) => (b as { content: string }).content)).toEqual(['один', 'два', 'три']);
  });

  it('keeps a failed send with its clientMessageId and sends it again on reconnection', async () => {
    let online = false;
    const { actor, bodies, saved } = start({
      send: async () => {
        if (!online) throw new Error('offline');
        return { message: message('m9', 'me', 9) };
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'офлайн' });
    actor.send({ type: 'composer.submit', at: AT });
    await waitFor(actor, (s) => s.context.outbox[0]?.status === 'failed');
    expect(saved.at(-1)?.map((i) => i.status)).toEqual(['failed']);
    online = true;
    actor.send({ type: 'composer.reconnected' });
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(bodies.map((b) => (b as { clientMessageId: string }).clientMessageId)).toEqual(['t-1', 't-1']);
    expect(saved.at(-1)).toEqual([]);
  });

  it('restores a stored outbox as failed items (files that were not uploaded cannot be retried)', async () => {
    const { actor } = start({ stored: [textItem(1, { status: 'sending' }), lostUpload], send: () => new Promise(() => {}) });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.outbox.map((i) => [i.status, i.retryable, i.error])).toEqual([
      ['failed', true, null],
      ['failed', false, FILES_LOST],
    ]);
  });

  it('uploads files one after another with progress, then sends one FILE message (not all images)', async () => {
    const progress: number[][] = [];
    const { actor, bodies } = start({
      upload: async (f, report) => {
        report(30);
        await new Promise((r) => setTimeout(r, 0));
        progress.push(actor.getSnapshot().context.outbox[0].files.map((x) => x.progress));
        return attachmentOf(f);
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.attach', files: [photo, notes], at: AT });
    expect(actor.getSnapshot().context.outbox[0].id).toMatch(/^tmp-/);
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(progress).toEqual([
      [30, 0],
      [100, 30],
    ]);
    expect(bodies).toEqual([
      {
        conversationId: 'c1',
        type: 'FILE',
        content: '',
        replyToId: null,
        clientMessageId: 't-1',
        attachments: [
          { url: '/uploads/photo.png', type: 'IMAGE' },
          { url: '/uploads/notes.txt', type: 'FILE' },
        ],
      },
    ]);
  });

  it("marks a failed upload 'upload failed' and uploads only what is missing on retry; IMAGE when all are images", async () => {
    let fail = true;
    const uploads: string[] = [];
    const { actor, bodies } = start({
      upload: async (f) => {
        uploads.push(f.name);
        if (f.name === 'second.png' && fail) throw new Error(UPLOAD_FAILED);
        return attachmentOf(f);
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    const second = new File(['png'], 'second.png', { type: 'image/png' });
    actor.send({ type: 'composer.attach', files: [photo, second], at: AT });
    await waitFor(actor, (s) => s.context.outbox[0]?.status === 'failed');
    expect(actor.getSnapshot().context.outbox[0].error).toBe(UPLOAD_FAILED);
    fail = false;
    actor.send({ type: 'composer.retry', id: actor.getSnapshot().context.outbox[0].id });
    await waitFor(actor, (s) => s.context.outbox.length === 0);
    expect(uploads).toEqual(['photo.png', 'second.png', 'second.png']);
    expect((bodies[0] as { type: string }).type).toBe('IMAGE');
  });

  it('keeps a draft per conversation and tells the typing actor about keystrokes', async () => {
    const typing: string[] = [];
    const recorder = createMachine({ on: { '*': { actions: ({ event }) => typing.push(event.type) } } });
    const parent = createMachine({
      invoke: [
        { id: 'typing', systemId: 'typing', src: recorder },
        {
          id: 'composer',
          systemId: 'composer',
          src: composerMachine.provide({ actors: { serverEvents: quiet, outboxStore: quiet, loadOutbox: hang } as never }),
          input,
        },
      ],
    });
    const app = createActor(parent).start();
    const composer = app.system.get('composer');
    composer.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    composer.send({ type: 'composer.input', text: 'черновик' });
    composer.send({ type: 'composer.focusConversation', conversationId: 'c2' });
    expect(composer.getSnapshot().context.text).toBe('');
    composer.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    expect(composer.getSnapshot().context.text).toBe('черновик');
    composer.send({ type: 'composer.input', text: '' });
    expect(typing).toEqual(['typing.keystroke', 'typing.stop']);
    app.stop();
  });
});
