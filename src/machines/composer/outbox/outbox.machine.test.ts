import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { attachmentOf, type TestOutboxOptions, testOutbox } from '../../../../tests/fixtures/outbox';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { DEVICE_WAIT_MS, type OutboxActorRef, type OutboxContext, outboxMachine, SEND_REFUSED } from './outbox.machine';
import { FILES_LOST, type OutboxItem, type OutboxPart, outboxItem, UPLOAD_FAILED } from './outbox-item';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const input = { userId: 'me', tag: 't' };
const AT = '2025-03-01T10:00:00.000Z';
/** The limit named in whole megabytes (at least 1). */
const TOO_LARGE_3 = 'Файл больше 1 МБ — такие файлы не отправляются';

const photo = new File(['png'], 'photo.png', { type: 'image/png' });
const notes = new File(['text'], 'notes.txt', { type: 'text/plain' });
const voice = new Blob(['opus'], { type: 'audio/webm;codecs=opus' });

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

const add = (part: OutboxPart, conversationId = 'c1') => ({
  type: 'outbox.add' as const,
  conversationId,
  part,
  at: AT,
});
const text = add({ kind: 'text', content: 'привет', replyTo: { id: 'm1', content: 'исходное сообщение' } });
/** This browser's secret chat device as the outbox meets it: only its identity matters to the machine. */
const DEVICE = { id: 'secretDevice' } as never;

type Snap = ReturnType<typeof outboxMachine.getInitialSnapshot>;
const ctx = (s: Snap) => s.context as OutboxContext;
// Nothing waiting and nothing sent yet: one send per path keeps the counter (and so the states) bounded.
const calm = (s: Snap) => ctx(s).items.length === 0 && ctx(s).seq === 0;
const firstFailed = (s: Snap) => ctx(s).items.find((i) => i.status === 'failed');
const active = (s: Snap) => ctx(s).items.find((i) => i.id === ctx(s).activeId);

describeModel({
  name: 'outbox',
  machine: outboxMachine.provide({
    actors: { serverEvents: quiet, outboxStore: quiet, loadOutbox: hang, upload: quiet, sendMessage: hang } as never,
  }),
  inputs: [input],
  events: {
    'outbox.add': (s) =>
      calm(s)
        ? [
            text,
            add({ kind: 'files', files: [photo] }),
            add({ kind: 'files', files: [photo, notes] }),
            add({ kind: 'voice', file: voice, voice: { durationMs: 3000, waveform: [10, 80, 40] } }),
            { ...add({ kind: 'text', content: 'тайна', replyTo: null }, 's1'), secret: true },
            { ...add({ kind: 'files', files: [photo] }, 's1'), secret: true },
          ]
        : [],
    // Once per path: the list's secret chats (marking an item kept from before), the device coming and going.
    'outbox.secretChats': (s) =>
      ctx(s).secretChats.length === 0 ? [{ type: 'outbox.secretChats', conversationIds: ['c1'] }] : [],
    'outbox.device': (s) =>
      ctx(s).device === null ? [{ type: 'outbox.device', device: DEVICE }] : [{ type: 'outbox.device', device: null }],
    'outbox.retry': (s) => {
      const item = firstFailed(s);
      return item ? [{ type: 'outbox.retry', id: item.id }] : [];
    },
    'outbox.remove': (s) =>
      ctx(s)
        .items.slice(0, 1)
        .map((i) => ({ type: 'outbox.remove', id: i.id })),
    'outbox.reconnected': (s) => (firstFailed(s) ? [{ type: 'outbox.reconnected' }] : []),
    'upload.progress': (s) =>
      active(s)?.files.some((f) => f.progress === 50) ? [] : [{ type: 'upload.progress', percent: 50 }],
    'upload.done': (s) => {
      const file = active(s)?.files.find((f) => !f.attachment)?.file as File | undefined;
      return file ? [{ type: 'upload.done', attachment: attachmentOf(file) }] : [];
    },
    'upload.failed': () => [
      { type: 'upload.failed', message: UPLOAD_FAILED },
      { type: 'upload.failed', message: TOO_LARGE_3, retryable: false },
    ],
    // 3 bytes: the photo fits, the notes and the recording (4 bytes each) do not.
    'xstate.done.actor.loadUploadLimit': () => [{ type: 'xstate.done.actor.loadUploadLimit', output: 3 }],
    'xstate.error.actor.loadUploadLimit': () => [
      { type: 'xstate.error.actor.loadUploadLimit', error: new Error('offline') },
    ],
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
      {
        type: 'xstate.error.actor.sendMessage',
        error: new RequestFailure(422, 'Ответить можно только на сообщение из этой беседы'),
      },
    ],
  },
});

describe('outbox items', () => {
  it('are made by one factory: queued, retryable, the temporary id from the clientMessageId, the part by kind', () => {
    const common = {
      id: 'tmp-t-1',
      clientMessageId: 't-1',
      conversationId: 'c1',
      status: 'queued',
      error: null,
      retryable: true,
      createdAt: AT,
    };
    expect(
      outboxItem('t-1', 'c1', { kind: 'text', content: 'Привет', replyTo: { id: 'm1', content: 'исходное' } }, AT),
    ).toEqual({
      ...common,
      kind: 'text',
      content: 'Привет',
      replyTo: { id: 'm1', content: 'исходное' },
      files: [],
    });
    expect(outboxItem('t-1', 'c1', { kind: 'files', files: [photo, notes] }, AT)).toEqual({
      ...common,
      kind: 'files',
      content: '',
      replyTo: null,
      files: [
        { name: 'photo.png', size: 3, mime: 'image/png', progress: 0, file: photo, attachment: null },
        { name: 'notes.txt', size: 4, mime: 'text/plain', progress: 0, file: notes, attachment: null },
      ],
    });
    const recording = new Blob(['m4a'], { type: 'audio/mp4' });
    const item = outboxItem(
      't-1',
      'c1',
      { kind: 'voice', file: recording, voice: { durationMs: 1200, waveform: [1, 2] } },
      AT,
    );
    expect(item).toMatchObject({
      ...common,
      kind: 'voice',
      content: '',
      replyTo: null,
      voice: { durationMs: 1200, waveform: [1, 2] },
    });
    expect(item.files.map((f) => [f.name, f.mime, f.file])).toEqual([['voice.m4a', 'audio/mp4', recording]]);
  });
});

describe('outbox', () => {
  function start(options: TestOutboxOptions) {
    /** What the outbox tells its parent (the composer in the app). */
    const told: { type: string }[] = [];
    const { outbox, bodies, saved } = testOutbox(options);
    const parent = createActor(
      createMachine({
        invoke: { id: 'outbox', src: outbox, input },
        on: { '*': { actions: ({ event }) => told.push(event) } },
      }),
    ).start();
    const actor = parent.getSnapshot().children.outbox as OutboxActorRef;
    return { actor, bodies, saved, told };
  }

  it('tells its parent what the server has, asking for a refresh after files', async () => {
    const { actor, told } = start({});
    actor.send(text);
    actor.send(add({ kind: 'files', files: [notes] }));
    await waitFor(actor, (s) => s.context.items.length === 0);
    expect(told.filter((e) => e.type === 'outbox.delivered')).toEqual([
      { type: 'outbox.delivered', message: message('m9', 'me', 9), refresh: false },
      { type: 'outbox.delivered', message: message('m9', 'me', 9), refresh: true },
    ]);
  });

  it('keeps a refused message with the server’s reason (or its own) and does not retry it on reconnection', async () => {
    let reason: string | null = 'Ответить можно только на сообщение из этой беседы';
    const { actor, bodies } = start({
      send: async () => {
        throw new RequestFailure(422, reason);
      },
    });
    actor.send(text);
    await waitFor(actor, (s) => s.context.items[0]?.status === 'failed');
    reason = null;
    actor.send(add({ kind: 'text', content: 'ещё', replyTo: null }));
    await waitFor(actor, (s) => s.context.items[1]?.status === 'failed');
    expect(actor.getSnapshot().context.items.map((i) => [i.error, i.retryable])).toEqual([
      ['Ответить можно только на сообщение из этой беседы', false],
      [SEND_REFUSED, false],
    ]);
    actor.send({ type: 'outbox.reconnected' });
    actor.send({ type: 'outbox.retry', id: 'tmp-t-1' });
    expect(bodies).toHaveLength(2);
  });

  it('refuses a file over the server’s limit at once, before any upload, saying so, and never retries it', async () => {
    const uploads: string[] = [];
    const { actor, bodies } = start({
      uploadLimitBytes: 3,
      upload: async (f) => {
        uploads.push(f.name);
        return attachmentOf(f);
      },
    });
    await waitFor(actor, (s) => s.matches('idle') && s.context.uploadLimitBytes === 3);
    actor.send(add({ kind: 'files', files: [photo, notes] }));
    expect(actor.getSnapshot().context.items.map((i) => [i.status, i.error, i.retryable])).toEqual([
      ['failed', 'Файл больше 1 МБ — такие файлы не отправляются', false],
    ]);
    actor.send(add({ kind: 'voice', file: voice, voice: { durationMs: 3000, waveform: [10] } }));
    expect(actor.getSnapshot().context.items[1]).toMatchObject({ status: 'failed', retryable: false });
    actor.send({ type: 'outbox.retry', id: 'tmp-t-1' });
    actor.send({ type: 'outbox.reconnected' });
    actor.send(add({ kind: 'files', files: [photo] }));
    await waitFor(actor, (s) => s.context.items.length === 2);
    expect(uploads).toEqual(['photo.png']);
    expect(bodies).toHaveLength(1);
  });

  it('refuses an item queued before the limit was known when its turn comes, without uploading it', async () => {
    let limit!: (n: number) => void;
    const uploads: string[] = [];
    const { outbox } = testOutbox({
      upload: async (f) => {
        uploads.push(f.name);
        return attachmentOf(f);
      },
    });
    const actor = createActor(
      outbox.provide({
        actors: {
          loadOutbox: fromPromise(() => new Promise<OutboxItem[]>(() => {})),
          loadUploadLimit: fromPromise(() => new Promise<number>((r) => (limit = r))),
        },
      }),
      { input },
    ).start();
    actor.send(add({ kind: 'files', files: [notes] }));
    limit(3);
    await waitFor(actor, (s) => s.context.uploadLimitBytes === 3);
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ status: 'queued' });
    actor.send({ type: 'xstate.done.actor.loadOutbox', output: [] } as never);
    expect(actor.getSnapshot().context.items.map((i) => [i.status, i.error, i.retryable])).toEqual([
      ['failed', 'Файл больше 1 МБ — такие файлы не отправляются', false],
    ]);
    expect(uploads).toEqual([]);
  });

  it('an upload says the server’s reason: a refused file (413) without a retry, a full disk (507) with one', async () => {
    let answer = new RequestFailure(413, 'Файл больше 25 МБ — такие файлы не отправляются');
    const { actor } = start({
      upload: async () => {
        throw answer;
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(add({ kind: 'files', files: [notes] }));
    await waitFor(actor, (s) => s.context.items[0]?.status === 'failed');
    answer = new RequestFailure(507, 'На сервере закончилось место, повторите позже');
    actor.send(add({ kind: 'files', files: [photo] }));
    await waitFor(actor, (s) => s.context.items[1]?.status === 'failed');
    // No answer at all (offline): nothing to say but that it did not go.
    answer = new RequestFailure(null, null);
    actor.send(add({ kind: 'files', files: [notes] }));
    await waitFor(actor, (s) => s.context.items[2]?.status === 'failed');
    expect(actor.getSnapshot().context.items.map((i) => [i.error, i.retryable])).toEqual([
      ['Файл больше 25 МБ — такие файлы не отправляются', false],
      ['На сервере закончилось место, повторите позже', true],
      [UPLOAD_FAILED, true],
    ]);
  });

  it('a send the server could not take says why and may be retried; without an answer it says nothing more', async () => {
    let answer = new RequestFailure(507, 'На сервере закончилось место, повторите позже');
    const { actor, bodies } = start({
      send: async () => {
        throw answer;
      },
    });
    actor.send(text);
    await waitFor(actor, (s) => s.context.items[0]?.status === 'failed');
    answer = new RequestFailure(null, null);
    actor.send(add({ kind: 'text', content: 'ещё', replyTo: null }));
    await waitFor(actor, (s) => s.context.items[1]?.status === 'failed');
    expect(actor.getSnapshot().context.items.map((i) => [i.error, i.retryable])).toEqual([
      ['На сервере закончилось место, повторите позже', true],
      [null, true],
    ]);
    actor.send({ type: 'outbox.retry', id: 'tmp-t-1' });
    await waitFor(actor, () => bodies.length === 3);
  });

  it('stops an upload when its item is removed and goes on with the next', async () => {
    const uploads: string[] = [];
    const { actor, bodies, saved } = start({
      upload: (f) => {
        uploads.push(f.name);
        return f === photo ? new Promise(() => {}) : Promise.resolve(attachmentOf(f));
      },
    });
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(add({ kind: 'files', files: [photo] }));
    actor.send(add({ kind: 'files', files: [notes] }));
    expect(actor.getSnapshot().hasTag('uploading')).toBe(true);
    actor.send({ type: 'outbox.remove', id: 'tmp-t-1' });
    await waitFor(actor, (s) => s.context.items.length === 0);
    expect(uploads).toEqual(['photo.png', 'notes.txt']);
    expect(bodies).toMatchObject([{ clientMessageId: 't-2', type: 'FILE' }]);
    expect(saved.at(-1)).toEqual([]);
  });

  it('restores a stored outbox as failed items (files that were not uploaded cannot be retried)', async () => {
    const { actor } = start({
      stored: [textItem(1, { status: 'sending' }), lostUpload],
      send: () => new Promise(() => {}),
    });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(actor.getSnapshot().context.items.map((i) => [i.status, i.retryable, i.error])).toEqual([
      ['failed', true, null],
      ['failed', false, FILES_LOST],
    ]);
  });
});

// The first message of a secret chat just made is often sent before the chats page has started the device: its item
// waits for the device the composer passes on, sends at once when there is one, and gives up after DEVICE_WAIT_MS.
describe("the outbox and this browser's secret chat device", () => {
  function start(device: unknown = null) {
    const { outbox, bodies } = testOutbox({ send: () => new Promise(() => {}) });
    const actor = createActor(outbox, { input: { ...input, device: device as never } }).start();
    return { actor, bodies };
  }
  const secretText = { ...add({ kind: 'text', content: 'тайна', replyTo: null }, 's1'), secret: true };

  afterEach(() => vi.useRealTimers());

  it('hands a secret text to the device at once when it runs', async () => {
    const { actor, bodies } = start(DEVICE);
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(secretText);
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ conversationId: 's1', content: 'тайна', secret: true });
    expect((bodies[0] as { device: unknown }).device).toBe(DEVICE);
  });

  it('waits for a device that starts later, not sending before', async () => {
    const { actor, bodies } = start();
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(secretText);
    actor.send({ type: 'outbox.device', device: null });
    await Promise.resolve();
    expect(bodies).toEqual([]);
    expect(actor.getSnapshot().matches({ busy: 'awaitingDevice' })).toBe(true);
    expect(actor.getSnapshot().context.items.map((i) => i.status)).toEqual(['sending']);
    actor.send({ type: 'outbox.device', device: DEVICE });
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect((bodies[0] as { device: unknown }).device).toBe(DEVICE);
  });

  it('gives up after its bound, like a send that got no answer (retried later)', async () => {
    vi.useFakeTimers();
    const { actor, bodies } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send(secretText);
    await vi.advanceTimersByTimeAsync(DEVICE_WAIT_MS - 1);
    expect(actor.getSnapshot().context.items.map((i) => i.status)).toEqual(['sending']);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().context.items.map((i) => [i.status, i.error, i.retryable])).toEqual([
      ['failed', null, true],
    ]);
    expect(bodies).toEqual([]);
  });

  it('never waits for a device for a plaintext chat', async () => {
    const { actor, bodies } = start();
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send(text);
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('secret');
    expect(bodies[0]).not.toHaveProperty('device');
  });
});

// An item kept from before items carried the secret mark is marked once the list knows its chat as secret, before or
// after it was restored; the mark is never taken away.
describe('items kept from before the secret mark', () => {
  it('are marked secret when the list knows their chat as secret, and others stay as they are', async () => {
    const { outbox } = testOutbox({ stored: [textItem(1, { conversationId: 's1' }), textItem(2)] });
    const before = createActor(outbox, { input }).start();
    await waitFor(before, (s) => s.matches('idle'));
    before.send({ type: 'outbox.secretChats', conversationIds: ['s1'] });
    expect(before.getSnapshot().context.items.map((i) => [i.conversationId, i.secret])).toEqual([
      ['s1', true],
      ['c1', undefined],
    ]);
    before.send({ type: 'outbox.secretChats', conversationIds: [] });
    expect(before.getSnapshot().context.items.map((i) => i.secret)).toEqual([true, undefined]);

    const stored = textItem(3, { conversationId: 's1' });
    const later = createActor(testOutbox({ stored: [stored] }).outbox, { input });
    later.start();
    later.send({ type: 'outbox.secretChats', conversationIds: ['s1'] });
    await waitFor(later, (s) => s.matches('idle'));
    expect(later.getSnapshot().context.items.map((i) => i.secret)).toEqual([true]);
  });
});
