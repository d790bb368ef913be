import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, emit, fromCallback } from 'xstate';
import { conversation, entry, message, person } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import { ANNOUNCER_TIMINGS, type AnnouncerEvent } from './announcer.protocol';
import { announcerMachine } from './announcer.machine';
import { heardPreview } from './announcer-sources';
import { burstText, uploadText } from './announcer-text';

const quiet = fromCallback(() => () => {}) as never; // sources that say nothing: the tests send the events
const stubbed = announcerMachine.provide({ actors: { sources: quiet } });
type Snap = ReturnType<typeof stubbed.getInitialSnapshot>;

const msg = (senderId: string, senderName: string, over: Partial<AnnouncerEvent> = {}): AnnouncerEvent =>
  ({
    type: 'announcer.message',
    conversationId: 'c1',
    own: false,
    senderId,
    senderName,
    preview: 'привет',
    ...over,
  }) as AnnouncerEvent;

/** No timer of another region runs, so the one fired is the only one the fake clock reaches. */
const only = (s: Snap, region: 'messages' | 'typing' | 'call') =>
  (region === 'messages' || s.matches({ messages: 'quiet' })) &&
  (region === 'typing' || s.matches({ typing: 'ready' })) &&
  (region === 'call' || s.matches({ call: 'silent' }));

describeModel({
  name: 'announcer',
  machine: stubbed,
  events: {
    // The chat on screen: first c1, then once another (what was gathered in c1 is dropped).
    'announcer.opened': (s) =>
      s.context.open === null
        ? [{ type: 'announcer.opened', conversationId: 'c1' }]
        : s.context.open === 'c1'
          ? [{ type: 'announcer.opened', conversationId: 'c2' }]
          : [],
    // Two people, one's own and another chat's (ignored), a few times at most.
    'announcer.message': (s) =>
      s.context.open === 'c1' && s.context.polite.n < 2 && s.context.burst.length < 2
        ? [
            msg('u2', 'Анна'),
            msg('u3', 'Борис'),
            ...(s.context.burst.length === 0
              ? [msg('me', 'Я', { own: true }), msg('u2', 'Анна', { conversationId: 'c2' })]
              : []),
          ]
        : [],
    'announcer.typing': (s) =>
      s.context.open === 'c1' && s.context.polite.n < 2
        ? [
            { type: 'announcer.typing', conversationId: 'c1', name: 'Анна' },
            { type: 'announcer.typing', conversationId: 'c2', name: 'Борис' },
          ]
        : [],
    'announcer.call': (s) =>
      s.context.assertive.n < 2 ? [{ type: 'announcer.call', name: 'Анна', video: false }] : [],
    'announcer.upload': (s) =>
      s.context.polite.n === 0 ? [{ type: 'announcer.upload', phase: 'started', names: ['отчёт.pdf'] }] : [],
    'xstate.after.burst.announcer.messages.gathering': (s) =>
      only(s, 'messages') ? [{ type: 'xstate.after.burst.announcer.messages.gathering' }] : [],
    'xstate.after.typingPause.announcer.typing.said': (s) =>
      only(s, 'typing') ? [{ type: 'xstate.after.typingPause.announcer.typing.said' }] : [],
    'xstate.after.ringing.announcer.call.ringing': (s) =>
      only(s, 'call') ? [{ type: 'xstate.after.ringing.announcer.call.ringing' }] : [],
  },
  contextKey: (c) => c,
});

describe('what the announcer says', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const start = () => {
    vi.useFakeTimers();
    const actor = createActor(stubbed).start();
    actor.send({ type: 'announcer.opened', conversationId: 'c1' });
    const polite = () => actor.getSnapshot().context.polite.text;
    return { actor, polite };
  };

  it('says a message in the open chat once, after the burst window: «Анна: привет»', () => {
    const { actor, polite } = start();
    actor.send(msg('u2', 'Анна'));
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs - 1);
    expect(polite()).toBe('');
    vi.advanceTimersByTime(1);
    expect(polite()).toBe('Анна: привет');
    expect(actor.getSnapshot().context.polite.n).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(actor.getSnapshot().context.polite.n).toBe(1);
  });

  it('sums up a burst: «Анна: 5 новых сообщений», and from several people «5 новых сообщений»', () => {
    const { actor, polite } = start();
    for (let i = 0; i < 5; i++) actor.send(msg('u2', 'Анна'));
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs);
    expect(polite()).toBe('Анна: 5 новых сообщений');
    for (let i = 0; i < 4; i++) actor.send(msg('u2', 'Анна'));
    actor.send(msg('u3', 'Борис'));
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs);
    expect(polite()).toBe('5 новых сообщений');
    expect(burstText([1, 2].map(() => ({ senderId: 'u2', senderName: 'Анна', preview: 'x' })))).toBe(
      'Анна: 2 новых сообщения',
    );
    expect(burstText(Array.from({ length: 21 }, () => ({ senderId: 'u2', senderName: 'Анна', preview: 'x' })))).toBe(
      'Анна: 21 новое сообщение',
    );
  });

  it('keeps quiet about other chats, about one’s own messages, and drops a burst when another chat opens', () => {
    const { actor, polite } = start();
    actor.send(msg('u2', 'Анна', { conversationId: 'c2' }));
    actor.send(msg('me', 'Я', { own: true }));
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs);
    expect(polite()).toBe('');
    actor.send(msg('u2', 'Анна'));
    actor.send({ type: 'announcer.opened', conversationId: 'c2' });
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs);
    expect(polite()).toBe('');
  });

  it('says typing once per pause: «Анна печатает», again only after a pause or a message', () => {
    const { actor, polite } = start();
    actor.send({ type: 'announcer.typing', conversationId: 'c1', name: 'Анна' });
    expect(polite()).toBe('Анна печатает');
    const said = () => actor.getSnapshot().context.polite.n;
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.typingPauseMs - 1);
    actor.send({ type: 'announcer.typing', conversationId: 'c1', name: 'Анна' }); // the pause starts again
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.typingPauseMs - 1);
    expect(said()).toBe(1);
    vi.advanceTimersByTime(1);
    actor.send({ type: 'announcer.typing', conversationId: 'c1', name: 'Анна' });
    expect(said()).toBe(2);
    actor.send(msg('u2', 'Анна')); // she sent: her next typing is a new turn
    actor.send({ type: 'announcer.typing', conversationId: 'c1', name: 'Анна' });
    expect(said()).toBe(3);
    actor.send({ type: 'announcer.typing', conversationId: 'c2', name: 'Борис' });
    expect(said()).toBe(3);
  });

  it('says an incoming call at once in the assertive region, with how to answer, and clears it after the ring', () => {
    const { actor } = start();
    actor.send({ type: 'announcer.call', name: 'Анна', video: true });
    const assertive = () => actor.getSnapshot().context.assertive.text;
    expect(assertive()).toBe('Входящий видеозвонок: Анна. Ответить — Enter, отклонить — Escape');
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.callMs);
    expect(assertive()).toBe('');
    actor.send({ type: 'announcer.call', name: 'Борис', video: false });
    expect(assertive()).toBe('Входящий звонок: Борис. Ответить — Enter, отклонить — Escape');
  });

  it('says an upload’s start and end', () => {
    const { actor, polite } = start();
    actor.send({ type: 'announcer.upload', phase: 'started', names: ['отчёт.pdf'] });
    expect(polite()).toBe('Загрузка файла «отчёт.pdf»');
    actor.send({ type: 'announcer.upload', phase: 'done', names: ['отчёт.pdf'] });
    expect(polite()).toBe('Файл «отчёт.pdf» загружен');
    expect(uploadText('failed', ['a.png'])).toBe('Файл «a.png» не загрузился');
    expect(uploadText('started', ['a.png', 'b.png'])).toBe('Загрузка файлов: 2');
    expect(uploadText('done', ['a.png', 'b.png'])).toBe('Файлы загружены: 2');
    expect(uploadText('failed', ['a.png', 'b.png'])).toBe('Файлы не загрузились: 2');
  });
});

describe('where the announcer hears it', () => {
  const anna = person('u2', 'Анна');
  const boris = person('u3', 'Борис');
  const me = person('me', 'Я');
  type Item = { id: string; kind: string; status: string; files: { name: string }[] };

  /** Stand-ins for the realtime, chats and composer actors (with its outbox child), and the real sources. */
  function world() {
    const realtime = createMachine({
      types: { events: {} as { type: 'push'; name: string; payload: unknown } },
      on: {
        push: { actions: emit(({ event }) => ({ type: 'server.event', name: event.name, payload: event.payload })) },
      },
    });
    const chats = createMachine({
      types: { events: {} as { type: 'select'; id: string } },
      context: {
        me: 'me',
        selectedId: 'c1',
        entries: [
          entry(conversation('c1', [me, anna, boris], { isGroup: true })),
          entry(conversation('c2', [me, boris])),
        ],
      },
      on: {
        select: { actions: emit(({ event }) => ({ type: 'chats.selected', conversationId: event.id, secret: false })) },
      },
    });
    const outbox = createMachine({
      types: { context: {} as { items: Item[] }, events: {} as { type: 'items'; items: Item[] } },
      context: { items: [] },
      on: { items: { actions: assign({ items: ({ event }) => event.items }) } },
    });
    const composer = createMachine({ invoke: { id: 'outbox', src: outbox } });
    const root = createMachine({
      invoke: [
        { id: 'realtime', systemId: 'realtime', src: realtime },
        { id: 'chats', systemId: 'chats', src: chats },
        { id: 'composer', systemId: 'composer', src: composer },
        { id: 'announcer', src: announcerMachine },
      ],
    });
    const actor = createActor(root).start();
    const announcer = actor.getSnapshot().children.announcer as ReturnType<typeof createActor<typeof announcerMachine>>;
    return { actor, announcer };
  }

  it('tells messages with the sender’s name as the list knows it, typing, calls and the open chat', () => {
    vi.useFakeTimers();
    const { actor, announcer } = world();
    const push = (name: string, payload: unknown) => actor.system.get('realtime').send({ type: 'push', name, payload });
    expect(announcer.getSnapshot().context.open).toBe('c1');
    push('message:new', { message: message('m1', 'u2', 1, { content: 'привет' }) });
    push('message:new', { message: message('m2', 'me', 2) }); // one's own from another tab
    push('message:new', { message: message('m3', 'u2', 3, { threadRootId: 'm1' }) }); // a thread reply
    vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs);
    expect(announcer.getSnapshot().context.polite.text).toBe('Анна: привет');
    push('conversation:typing', { conversationId: 'c1', userId: 'u3', typing: true });
    expect(announcer.getSnapshot().context.polite.text).toBe('Борис печатает');
    push('call:incoming', { conversationId: 'c2', from: { id: 'u3', name: 'Борис' }, video: false });
    expect(announcer.getSnapshot().context.assertive.text).toContain('Входящий звонок: Борис');
    actor.system.get('chats').send({ type: 'select', id: 'c2' });
    expect(announcer.getSnapshot().context.open).toBe('c2');
    actor.stop();
    vi.useRealTimers();
  });

  it('tells an upload’s start and its end as the outbox moves the file send', () => {
    const { actor, announcer } = world();
    const outbox = actor.system.get('composer').getSnapshot().children.outbox;
    const said = () => announcer.getSnapshot().context.polite.text;
    const item = (status: string): Item => ({ id: 't1', kind: 'files', status, files: [{ name: 'отчёт.pdf' }] });
    const text: Item = { id: 't2', kind: 'text', status: 'sending', files: [] };
    outbox.send({ type: 'items', items: [item('queued'), text] });
    expect(said()).toBe('');
    outbox.send({ type: 'items', items: [item('uploading')] });
    expect(said()).toBe('Загрузка файла «отчёт.pdf»');
    outbox.send({ type: 'items', items: [item('sending')] });
    expect(said()).toBe('Файл «отчёт.pdf» загружен');
    outbox.send({ type: 'items', items: [item('uploading')] }); // tried again
    outbox.send({ type: 'items', items: [item('failed')] });
    expect(said()).toBe('Файл «отчёт.pdf» не загрузился');
    outbox.send({ type: 'items', items: [item('uploading')] });
    outbox.send({ type: 'items', items: [] }); // sent and gone in one step
    expect(said()).toBe('Файл «отчёт.pdf» загружен');
    expect(announcer.getSnapshot().context.polite.n).toBe(6); // three starts, two ends, one failure
    actor.stop();
  });

  it('says the short text of each kind of message', () => {
    const at = { url: '/u/a', type: 'FILE' as const, name: 'отчёт.pdf', width: null, height: null, size: 10 };
    expect(heardPreview(message('m', 'u2', 0, { type: 'FILE', content: '', attachments: [at] }))).toBe(
      'Файл: отчёт.pdf',
    );
    expect(heardPreview(message('m', 'u2', 0, { type: 'IMAGE', content: '' }))).toBe('Фото');
    expect(heardPreview(message('m', 'u2', 0, { type: 'VOICE', voice: { durationMs: 7_000, waveform: [] } }))).toBe(
      'Голосовое сообщение, 0:07',
    );
    expect(heardPreview(message('m', 'u2', 0, { content: 'я'.repeat(300) }))).toHaveLength(100);
  });
});
