import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, createMachine, fromCallback, waitFor } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { attachmentOf, type TestOutboxOptions, testOutbox } from '../../../../tests/fixtures/outbox';
import { describeModel } from '../../../../tests/model/harness';
import type { OutboxActorRef } from '../outbox/outbox.machine';
import { UPLOAD_FAILED } from '../outbox/outbox-item';
import { type ComposerActorRef, type ComposerContext, composerMachine } from './composer.machine';

const quiet = fromCallback(() => () => {});
const input = { tag: 't' };
/** The session watcher: 'me' is signed in from the start. */
const signedIn = fromCallback(({ sendBack }) => sendBack({ type: 'composer.signedIn', userId: 'me' }));
const AT = '2025-03-01T10:00:00.000Z';
/** The secret chat device as the composer meets it: only its identity matters here. */
const DEVICE = { id: 'secretDevice' } as never;

const photo = new File(['png'], 'photo.png', { type: 'image/png' });
const notes = new File(['text'], 'notes.txt', { type: 'text/plain' });
const voice = new Blob(['opus'], { type: 'audio/webm;codecs=opus' });

type Snap = ReturnType<typeof composerMachine.getInitialSnapshot>;
const ctx = (s: Snap) => s.context as ComposerContext;

// The outbox child is stubbed: what it is handed is checked below with a real one.
describeModel({
  name: 'composer',
  machine: composerMachine.provide({
    actors: { session: quiet, selections: quiet, outbox: quiet, drafts: quiet } as never,
  }),
  inputs: [input],
  events: {
    'composer.signedIn': () => [{ type: 'composer.signedIn', userId: 'me' }],
    // Only from a quiet composer: what signing out drops is checked below.
    'composer.signedOut': (s) => (ctx(s).conversationId || ctx(s).text ? [] : [{ type: 'composer.signedOut' }]),
    'composer.focusConversation': (s) => [
      ctx(s).conversationId
        ? { type: 'composer.focusConversation', conversationId: null }
        : { type: 'composer.focusConversation', conversationId: 'c1', secret: true },
    ],
    'composer.input': (s) => [{ type: 'composer.input', text: ctx(s).text ? '' : '  привет ' }],
    'composer.reply': (s) =>
      ctx(s).replyTo ? [] : [{ type: 'composer.reply', messageId: 'm1', content: 'исходное сообщение' }],
    // Only where it sends: a refused submit ends in the state a sent one reaches (the whitespace case is below).
    'composer.submit': (s) =>
      ctx(s).conversationId && ctx(s).text.trim() ? [{ type: 'composer.submit', at: AT }] : [],
    'composer.attach': () => [
      { type: 'composer.attach', files: [photo], at: AT },
      { type: 'composer.attach', files: [], at: AT },
    ],
    'recorder.recorded': () => [
      { type: 'recorder.recorded', recording: { file: voice, durationMs: 3000, waveform: [10, 80, 40], at: AT } },
      {
        type: 'recorder.recorded',
        recording: { file: voice, durationMs: 3000, waveform: [10, 80, 40], at: AT },
        thread: { conversationId: 'g1', rootId: 'r1' },
      },
    ],
    'composer.sendText': () => [
      { type: 'composer.sendText', conversationId: 'c2', text: ' в звонке ', at: AT },
      { type: 'composer.sendText', conversationId: 'c2', text: '   ', at: AT },
    ],
    'composer.threadReply': () => [
      {
        type: 'composer.threadReply',
        conversationId: 'g1',
        rootId: 'r1',
        part: { kind: 'text', content: 'в обсуждении', replyTo: null },
        at: AT,
      },
      { type: 'composer.threadReply', conversationId: 'g1', rootId: 'r1', part: { kind: 'files', files: [] }, at: AT },
    ],
    'composer.threadDraft': (s) => [
      ctx(s).drafts['thread:r1']
        ? { type: 'composer.threadDraft', rootId: 'r1', draft: { text: '', replyTo: null } }
        : { type: 'composer.threadDraft', rootId: 'r1', draft: { text: 'в обсуждении', replyTo: null } },
    ],
    'outbox.delivered': () => [{ type: 'outbox.delivered', message: message('m9', 'me', 9), refresh: false }],
    'composer.secretChats': () => [{ type: 'composer.secretChats', conversationIds: ['c1'] }],
    'composer.secretDevice': (s) => (ctx(s).device ? [] : [{ type: 'composer.secretDevice', device: DEVICE }]),
    'composer.secretDeviceGone': (s) => (ctx(s).device ? [{ type: 'composer.secretDeviceGone', device: DEVICE }] : []),
    'drafts.loaded': () => [
      {
        type: 'drafts.loaded',
        drafts: { c1: { text: 'из браузера', replyTo: null }, c3: { text: 'ещё', replyTo: null } },
      },
    ],
  },
});

describe('composer', () => {
  it("passes this browser's secret chat device and the list's secret chats to its outbox", () => {
    const handed: AnyEventObject[] = [];
    const inputs: unknown[] = [];
    const outbox = fromCallback(({ receive, input: given }) => {
      inputs.push(given);
      receive((e) => handed.push(e));
    });
    const session = fromCallback(({ receive, sendBack }) =>
      receive(() => sendBack({ type: 'composer.signedIn', userId: 'me' })),
    );
    const actor = createActor(
      composerMachine.provide({ actors: { session, selections: quiet, outbox, drafts: quiet } as never }),
      { input },
    ).start();
    // The device started before the outbox did: the outbox starts with it.
    actor.send({ type: 'composer.secretDevice', device: DEVICE });
    actor.send({ type: 'composer.signedIn', userId: 'me' });
    expect(inputs).toEqual([{ userId: 'me', tag: 't', device: DEVICE }]);
    actor.send({ type: 'composer.secretChats', conversationIds: ['s1'] });
    // Another device stopping (a page's earlier one) leaves the known one.
    const other = { id: 'other' } as never;
    actor.send({ type: 'composer.secretDeviceGone', device: other });
    actor.send({ type: 'composer.secretDeviceGone', device: DEVICE });
    expect(handed).toEqual([
      { type: 'outbox.secretChats', conversationIds: ['s1'] },
      { type: 'outbox.device', device: null },
    ]);
    expect(actor.getSnapshot().context.device).toBeNull();
  });

  it('hands each send to its outbox as the part that differs by kind', () => {
    const handed: AnyEventObject[] = [];
    const outbox = fromCallback(({ receive }) => receive((e) => handed.push(e)));
    const actor = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox, drafts: quiet } as never }),
      {
        input,
      },
    ).start();
    actor.send({ type: 'composer.submit', at: AT });
    actor.send({ type: 'composer.attach', files: [photo], at: AT });
    actor.send({ type: 'recorder.recorded', recording: { file: voice, durationMs: 1, waveform: [], at: AT } });
    expect(handed).toEqual([]); // no conversation in front
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.reply', messageId: 'm1', content: 'исходное' });
    actor.send({ type: 'composer.input', text: '  Привет!  ' });
    actor.send({ type: 'composer.submit', at: AT });
    actor.send({ type: 'composer.attach', files: [], at: AT });
    actor.send({ type: 'composer.attach', files: [photo, notes], at: AT });
    actor.send({ type: 'recorder.recorded', recording: { file: voice, durationMs: 3200, waveform: [5, 100], at: AT } });
    actor.send({ type: 'composer.sendText', conversationId: 'c2', text: ' Слышно? ', at: AT });
    expect(handed).toEqual([
      {
        type: 'outbox.add',
        conversationId: 'c1',
        part: { kind: 'text', content: 'Привет!', replyTo: { id: 'm1', content: 'исходное' } },
        at: AT,
      },
      { type: 'outbox.add', conversationId: 'c1', part: { kind: 'files', files: [photo, notes] }, at: AT },
      {
        type: 'outbox.add',
        conversationId: 'c1',
        part: { kind: 'voice', file: voice, voice: { durationMs: 3200, waveform: [5, 100] } },
        at: AT,
      },
      { type: 'outbox.add', conversationId: 'c2', part: { kind: 'text', content: 'Слышно?', replyTo: null }, at: AT },
    ]);
    actor.stop();
  });

  it('marks what is handed over in a secret chat (the selection says so; the call panel tells its own)', () => {
    const handed: AnyEventObject[] = [];
    const outbox = fromCallback(({ receive }) => receive((e) => handed.push(e)));
    const actor = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox, drafts: quiet } as never }),
      { input },
    ).start();
    actor.send({ type: 'composer.focusConversation', conversationId: 's1', secret: true });
    actor.send({ type: 'composer.input', text: 'тайна' });
    actor.send({ type: 'composer.submit', at: AT });
    actor.send({ type: 'composer.sendText', conversationId: 's1', text: 'в звонке', at: AT, secret: true });
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.attach', files: [photo], at: AT });
    expect(handed.map((e) => [e.conversationId, e.secret])).toEqual([
      ['s1', true],
      ['s1', true],
      ['c1', undefined],
    ]);
    actor.stop();
  });

  it("hands a secret chat's text over as typed: its ciphertext carries no formatting", () => {
    const handed: AnyEventObject[] = [];
    const outbox = fromCallback(({ receive }) => receive((e) => handed.push(e)));
    const actor = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox, drafts: quiet } as never }),
      { input },
    ).start();
    const formatted = { text: 'жирный', entities: [{ type: 'bold' as const, offset: 0, length: 6 }] };
    for (const secret of [false, true]) {
      actor.send({ type: 'composer.focusConversation', conversationId: secret ? 's1' : 'c1', secret });
      actor.send({ type: 'composer.input', text: '**жирный**' });
      actor.send({ type: 'composer.submit', at: AT, formatted });
    }
    expect(handed.map((e) => e.part)).toEqual([
      { kind: 'text', content: 'жирный', replyTo: null, entities: formatted.entities },
      { kind: 'text', content: '**жирный**', replyTo: null },
    ]);
    actor.stop();
  });

  it('hands nothing over while it is not known whether the chat is secret (the list still loading)', () => {
    const handed: AnyEventObject[] = [];
    const outbox = fromCallback(({ receive }) => receive((e) => handed.push(e)));
    const actor = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox, drafts: quiet } as never }),
      { input },
    ).start();
    actor.send({ type: 'composer.focusConversation', conversationId: 's1', secret: null });
    actor.send({ type: 'composer.input', text: 'тайна' });
    actor.send({ type: 'composer.submit', at: AT });
    actor.send({ type: 'composer.attach', files: [photo], at: AT });
    expect(handed).toEqual([]);
    // The text waits in the composer; once the list says the chat is secret, it goes sealed.
    expect(actor.getSnapshot().context.text).toBe('тайна');
    actor.send({ type: 'composer.focusConversation', conversationId: 's1', secret: true });
    actor.send({ type: 'composer.submit', at: AT });
    expect(handed.map((e) => [e.conversationId, e.secret])).toEqual([['s1', true]]);
    actor.stop();
  });

  it('follows the session: signed out, it drops the draft and its children; the next user starts afresh', () => {
    let report: (e: AnyEventObject) => void = () => {};
    const session = fromCallback(({ sendBack }) => {
      report = sendBack;
    });
    const actor = createActor(
      composerMachine.provide({ actors: { session, selections: quiet, outbox: quiet, drafts: quiet } as never }),
      { input },
    ).start();
    expect(actor.getSnapshot().children.outbox).toBeUndefined();
    report({ type: 'composer.signedIn', userId: 'me' });
    expect(actor.getSnapshot().children.outbox).toBeDefined();
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'черновик' });
    report({ type: 'composer.signedOut' });
    expect(actor.getSnapshot().children.outbox).toBeUndefined();
    expect(actor.getSnapshot().context).toMatchObject({ userId: null, conversationId: null, text: '', drafts: {} });
    actor.stop();
  });
});

describe('composer with its outbox', () => {
  function start(options: TestOutboxOptions) {
    /** What the composer emits (heard by the chats actor and the open conversation in the app). */
    const told: { type: string }[] = [];
    const { outbox, bodies, saved } = testOutbox(options);
    const composer = composerMachine.provide({
      actors: { session: signedIn, selections: quiet, outbox, drafts: quiet } as never,
    });
    const actor = createActor(composer, { input }).start() as ComposerActorRef;
    actor.on('*', (event) => told.push(event));
    const box = actor.getSnapshot().children.outbox as OutboxActorRef;
    return { actor, box, bodies, saved, told };
  }

  it('sends trimmed text with the reply and a clientMessageId, then clears both', async () => {
    const { actor, box, bodies, told } = start({});
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
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(told.filter((e) => e.type === 'composer.delivered')).toEqual([
      { type: 'composer.delivered', message: message('m9', 'me', 9), refresh: false },
    ]);
    expect(bodies).toEqual([
      { conversationId: 'c1', type: 'TEXT', content: 'Привет!', replyToId: 'm1', clientMessageId: 't-1' },
    ]);
  });

  it('sends the text the pane read its markers from, with its formatting', async () => {
    const { actor, box, bodies } = start({});
    const formatted = { text: 'жирный', entities: [{ type: 'bold' as const, offset: 0, length: 6 }] };
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1', secret: false });
    actor.send({ type: 'composer.input', text: '**жирный**' });
    actor.send({ type: 'composer.submit', at: AT, formatted });
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(bodies).toEqual([
      {
        conversationId: 'c1',
        type: 'TEXT',
        content: 'жирный',
        replyToId: null,
        clientMessageId: 't-1',
        entities: formatted.entities,
      },
    ]);
  });

  it('sends a recording from its recorder as a VOICE message with its duration and waveform', async () => {
    const { actor, box, bodies } = start({});
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({
      type: 'recorder.recorded',
      recording: { file: voice, durationMs: 3200, waveform: [5, 100, 40], at: AT },
    });
    await waitFor(box, (s) => s.context.items.length === 0);
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
    const { actor, box, bodies } = start({});
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'черновик' });
    actor.send({ type: 'composer.sendText', conversationId: 'c2', text: '   ', at: AT });
    actor.send({ type: 'composer.sendText', conversationId: 'c2', text: ' Слышно? ', at: AT });
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(actor.getSnapshot().context.text).toBe('черновик');
    expect(bodies).toEqual([
      { conversationId: 'c2', type: 'TEXT', content: 'Слышно?', replyToId: null, clientMessageId: 't-1' },
    ]);
  });

  it('sends queued messages one after another in order', async () => {
    const release: (() => void)[] = [];
    const { actor, box, bodies } = start({
      send: (body) =>
        new Promise((r) =>
          release.push(() => r({ message: message(`s-${(body as { content: string }).content}`, 'me', 1) })),
        ),
    });
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    for (const text of ['один', 'два', 'три']) {
      actor.send({ type: 'composer.input', text });
      actor.send({ type: 'composer.submit', at: AT });
    }
    expect(box.getSnapshot().context.items.map((i) => i.status)).toEqual(['sending', 'queued', 'queued']);
    for (let i = 0; i < 3; i++) {
      await waitFor(box, () => release.length === i + 1);
      release[i]();
    }
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(bodies.map((b) => (b as { content: string }).content)).toEqual(['один', 'два', 'три']);
  });

  it('keeps a failed send with its clientMessageId and sends it again on reconnection', async () => {
    let online = false;
    const { actor, box, bodies, saved } = start({
      send: async () => {
        if (!online) throw new Error('offline');
        return { message: message('m9', 'me', 9) };
      },
    });
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'офлайн' });
    actor.send({ type: 'composer.submit', at: AT });
    await waitFor(box, (s) => s.context.items[0]?.status === 'failed');
    expect(saved.at(-1)?.map((i) => i.status)).toEqual(['failed']);
    online = true;
    box.send({ type: 'outbox.reconnected' });
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(bodies.map((b) => (b as { clientMessageId: string }).clientMessageId)).toEqual(['t-1', 't-1']);
    expect(saved.at(-1)).toEqual([]);
  });

  it('sends a thread reply with its root; a retry after a lost answer goes with the same clientMessageId', async () => {
    let answers = 0;
    const { actor, box, bodies, saved, told } = start({
      // The first send reaches the server but its answer is lost; the retry gets the same message back.
      send: async () => {
        answers += 1;
        if (answers === 1) throw new Error('connection lost');
        return { message: { ...message('m9', 'me', 9), threadRootId: 'r1' } };
      },
    });
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.input', text: 'черновик беседы' });
    actor.send({
      type: 'composer.threadReply',
      conversationId: 'g1',
      rootId: 'r1',
      part: { kind: 'text', content: 'Ответ', replyTo: { id: 'a1', content: 'вопрос' }, mentions: ['u3'] },
      at: AT,
    });
    await waitFor(box, (s) => s.context.items[0]?.status === 'failed');
    expect(saved.at(-1)?.map((i) => [i.threadRootId, i.clientMessageId])).toEqual([['r1', 't-1']]);
    box.send({ type: 'outbox.reconnected' });
    await waitFor(box, (s) => s.context.items.length === 0);
    const body = {
      conversationId: 'g1',
      type: 'TEXT',
      content: 'Ответ',
      replyToId: 'a1',
      clientMessageId: 't-1',
      mentions: ['u3'],
      threadRootId: 'r1',
    };
    expect(bodies).toEqual([body, body]);
    // The conversation's own draft is untouched, and no «sent» scrolls the timeline.
    expect(actor.getSnapshot().context.text).toBe('черновик беседы');
    expect(told.map((e) => e.type)).toEqual(['composer.delivered']);
  });

  it('sends a recording started from a thread panel to its thread, leaving the chat in front alone', async () => {
    const { actor, box, bodies, told } = start({});
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({
      type: 'recorder.recorded',
      recording: { file: voice, durationMs: 1500, waveform: [20, 60], at: AT },
      thread: { conversationId: 'g1', rootId: 'r1' },
    });
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(bodies).toEqual([
      {
        conversationId: 'g1',
        type: 'VOICE',
        content: '',
        replyToId: null,
        clientMessageId: 't-1',
        attachments: [{ url: '/uploads/voice.webm', type: 'FILE' }],
        voice: { durationMs: 1500, waveform: [20, 60] },
        threadRootId: 'r1',
      },
    ]);
    expect(told.map((e) => e.type)).toEqual(['composer.delivered']);
  });

  it("sends a thread reply's files with their caption and quote as one message of the thread", async () => {
    const { actor, box, bodies, told } = start({});
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({
      type: 'composer.threadReply',
      conversationId: 'g1',
      rootId: 'r1',
      part: { kind: 'files', files: [photo], caption: ' Фото ', replyTo: { id: 'a1', content: 'вопрос' } },
      at: AT,
    });
    await waitFor(box, (s) => s.context.items.length === 0);
    expect(bodies).toEqual([
      {
        conversationId: 'g1',
        type: 'IMAGE',
        content: 'Фото',
        replyToId: 'a1',
        clientMessageId: 't-1',
        attachments: [{ url: '/uploads/photo.png', type: 'IMAGE' }],
        threadRootId: 'r1',
      },
    ]);
    // Nothing in the timeline to read again.
    expect(told).toEqual([{ type: 'composer.delivered', message: message('m9', 'me', 9), refresh: false }]);
  });

  it('uploads files one after another with progress, then sends one FILE message (not all images)', async () => {
    const progress: number[][] = [];
    const { actor, box, bodies } = start({
      upload: async (f, report) => {
        report(30);
        await new Promise((r) => setTimeout(r, 0));
        progress.push(box.getSnapshot().context.items[0].files.map((x) => x.progress));
        return attachmentOf(f);
      },
    });
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    actor.send({ type: 'composer.attach', files: [photo, notes], at: AT });
    expect(box.getSnapshot().context.items[0].id).toMatch(/^tmp-/);
    await waitFor(box, (s) => s.context.items.length === 0);
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
    const { actor, box, bodies } = start({
      upload: async (f) => {
        uploads.push(f.name);
        if (f.name === 'second.png' && fail) throw new Error(UPLOAD_FAILED);
        return attachmentOf(f);
      },
    });
    await waitFor(box, (s) => s.matches('idle'));
    actor.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    const second = new File(['png'], 'second.png', { type: 'image/png' });
    actor.send({ type: 'composer.attach', files: [photo, second], at: AT });
    await waitFor(box, (s) => s.context.items[0]?.status === 'failed');
    expect(box.getSnapshot().context.items[0].error).toBe(UPLOAD_FAILED);
    fail = false;
    box.send({ type: 'outbox.retry', id: box.getSnapshot().context.items[0].id });
    await waitFor(box, (s) => s.context.items.length === 0);
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
          src: composerMachine.provide({
            actors: { session: signedIn, selections: quiet, outbox: quiet, drafts: quiet } as never,
          }),
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

  it("keeps a thread's draft with the others and drops it once empty; the chat's own text is untouched", () => {
    const told: AnyEventObject[] = [];
    const drafts = fromCallback(({ receive }) => receive((e) => told.push(e)));
    const composer = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox: quiet, drafts } as never }),
      { input },
    ).start();
    composer.send({ type: 'composer.focusConversation', conversationId: 'g1' });
    composer.send({ type: 'composer.input', text: 'в чат' });
    const quote = { id: 'a1', content: 'вопрос' };
    composer.send({ type: 'composer.threadDraft', rootId: 'r1', draft: { text: 'в обсуждение', replyTo: quote } });
    expect(told.at(-1)).toEqual({
      type: 'drafts.changed',
      drafts: { g1: { text: 'в чат', replyTo: null }, 'thread:r1': { text: 'в обсуждение', replyTo: quote } },
    });
    composer.send({ type: 'composer.threadDraft', rootId: 'r1', draft: { text: '', replyTo: null } });
    expect(told.at(-1)).toEqual({ type: 'drafts.changed', drafts: { g1: { text: 'в чат', replyTo: null } } });
    expect(composer.getSnapshot().context.text).toBe('в чат');
    composer.stop();
  });

  it('hands every draft to its drafts child and takes back what the browser kept', () => {
    const told: AnyEventObject[] = [];
    const drafts = fromCallback(({ receive }) => receive((e) => told.push(e)));
    const composer = createActor(
      composerMachine.provide({ actors: { session: signedIn, selections: quiet, outbox: quiet, drafts } as never }),
      {
        input,
      },
    ).start();
    // Opened from the address before the stored drafts were read: the open conversation's text comes back.
    composer.send({ type: 'composer.focusConversation', conversationId: 'c1' });
    composer.send({
      type: 'drafts.loaded',
      drafts: {
        c1: { text: 'сохранённое', replyTo: { id: 'm1', content: 'вопрос' } },
        c2: { text: 'второе', replyTo: null },
      },
    });
    expect(composer.getSnapshot().context).toMatchObject({
      text: 'сохранённое',
      replyTo: { id: 'm1', content: 'вопрос' },
      drafts: { c2: { text: 'второе', replyTo: null } },
    });
    composer.send({ type: 'composer.input', text: 'сохранённое!' });
    expect(told.at(-1)).toEqual({
      type: 'drafts.changed',
      drafts: {
        c1: { text: 'сохранённое!', replyTo: { id: 'm1', content: 'вопрос' } },
        c2: { text: 'второе', replyTo: null },
      },
    });
    // A sent message leaves no draft behind.
    composer.send({ type: 'composer.submit', at: AT });
    expect(told.at(-1)).toEqual({ type: 'drafts.changed', drafts: { c2: { text: 'второе', replyTo: null } } });
    composer.stop();
  });
});
