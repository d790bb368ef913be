import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, emit, fromCallback, fromPromise } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { SearchResult } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { NOTHING_FOUND, SEARCH_FAILED, type SearchAnswer, type SearchRequest, searchMachine } from './search.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const quiet = fromCallback(() => () => {});
const result = (id: string, conversationId = 'c1', threadRootId?: string): SearchResult => ({
  conversationId,
  message: message(id, 'u2', 1, { conversationId, ...(threadRootId ? { threadRootId } : {}) }),
  snippet: `текст ${id}`,
  highlights: [[0, 5]],
});
const answer = (
  q: string,
  results: SearchResult[],
  nextBefore: string | null,
  extra: Partial<SearchRequest> = {},
): SearchAnswer => ({
  results,
  nextBefore,
  request: { q, ...extra },
});

type Snap = ReturnType<typeof searchMachine.getInitialSnapshot>;

/** The filters of a request for the snapshot's scope and «Тип» (the filter the model sets). */
const scopeOf = (s: Snap): Partial<SearchRequest> => ({
  ...(s.context.conversationId ? { conversationId: s.context.conversationId } : {}),
  ...(s.context.filters.kind ? { kind: s.context.filters.kind } : {}),
});

describeModel({
  name: 'search',
  machine: searchMachine.provide({
    actors: { session: quiet, selections: quiet, find: hang } as never,
  }),
  // The query is the only text typed; results and the cursor tell the states apart.
  events: {
    'search.input': (s) =>
      s.context.query === ''
        ? [{ type: 'search.input', text: 'собака' }]
        : [
            { type: 'search.input', text: s.context.query },
            { type: 'search.input', text: '  ' },
            ...(s.matches('debouncing') ? [] : [{ type: 'search.input', text: `${s.context.query}х` }]),
          ].filter((e) => e.text.length < 8),
    'search.scope': (s) => (s.context.conversationId ? [] : [{ type: 'search.scope', conversationId: 'c1' }]),
    // One filter set and cleared stands for all: they go the same way through the machine.
    'search.filter': (s) => [{ type: 'search.filter', filters: { kind: s.context.filters.kind ? null : 'photo' } }],
    'search.move': (s) => [
      { type: 'search.move', by: 1 },
      ...(s.context.active === -1 ? [{ type: 'search.move', by: -1 }] : []),
    ],
    'search.choose': (s) => [
      { type: 'search.choose' },
      ...(s.context.active === -1 ? [{ type: 'search.choose', index: 0 }] : []),
    ],
    'search.threadShown': (s) => (s.context.thread ? [{ type: 'search.threadShown' }] : []),
    'search.selected': (s) =>
      s.context.thread
        ? [
            { type: 'search.selected', conversationId: s.context.thread.conversationId },
            { type: 'search.selected', conversationId: 'c9' },
          ]
        : [],
    'xstate.done.actor.find': (s: Snap) => [
      {
        type: 'xstate.done.actor.find',
        output: answer(
          s.context.query,
          // m2 is a thread reply: choosing it leaves the thread for the open conversation.
          [result('m1'), result('m2', 'c2', 'r2')],
          'm2',
          scopeOf(s),
        ),
      },
      {
        type: 'xstate.done.actor.find',
        output: answer(s.context.query, [], null, scopeOf(s)),
      },
      // An answer to an older query (cannot come, the request is stopped; still never shown).
      { type: 'xstate.done.actor.find', output: answer('соб', [result('old')], null) },
    ],
    'xstate.error.actor.find': () => [
      { type: 'xstate.error.actor.find', error: new RequestFailure(400, 'Введите текст для поиска') },
    ],
    'xstate.done.actor.findMore': (s: Snap) =>
      s.context.results.length > 2
        ? []
        : [
            {
              type: 'xstate.done.actor.findMore',
              output: answer(s.context.query, [result('m3')], null, scopeOf(s)),
            },
            { type: 'xstate.done.actor.findMore', output: answer('соб', [result('old')], null) },
          ],
    'xstate.error.actor.findMore': () => [{ type: 'xstate.error.actor.findMore', error: new Error('offline') }],
  },
});

describe('search with a fetching actor', () => {
  function start(find: (r: SearchRequest) => Promise<SearchAnswer>) {
    vi.useFakeTimers();
    const asked: SearchRequest[] = [];
    const opened: unknown[] = [];
    // Records what it is asked; `select` makes it emit a selection as the chats actor does.
    const chats = createMachine({
      on: {
        '*': { actions: ({ event }) => opened.push(event) },
        select: {
          actions: emit(({ event }) => ({
            type: 'chats.selected',
            conversationId: event.conversationId,
            secret: false,
          })),
        },
      },
    });
    const machine = searchMachine.provide({
      actors: {
        session: quiet,
        find: fromPromise(({ input }: { input: SearchRequest }) => {
          asked.push(input);
          return find(input);
        }),
      } as never,
    });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'chats', src: chats, systemId: 'chats' },
          { id: 'search', src: machine, systemId: 'search' },
        ],
      }),
    ).start();
    const actor = root.system.get('search');
    return { actor, asked, opened, chats: root.system.get('chats') };
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('waits for a pause in typing, then asks once for the last text', async () => {
    const { actor, asked } = start(async (r) => answer(r.q, [result('m1')], null));
    for (const text of ['с', 'со', 'соб']) {
      actor.send({ type: 'search.input', text });
      vi.advanceTimersByTime(TIMINGS.searchDebounceMs - 1);
    }
    expect(asked).toEqual([]);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    vi.advanceTimersByTime(1);
    await settle();
    expect(asked).toEqual([{ q: 'соб' }]);
    expect(actor.getSnapshot().hasTag('results')).toBe(true);
    vi.useRealTimers();
  });

  it('a slow answer for an older text never replaces the newer one', async () => {
    const pending = new Map<string, (a: SearchAnswer) => void>();
    const { actor } = start((r) => new Promise((resolve) => pending.set(r.q, resolve)));
    actor.send({ type: 'search.input', text: 'кот' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    actor.send({ type: 'search.input', text: 'кошка' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    pending.get('кошка')?.(answer('кошка', [result('new')], null));
    await settle();
    pending.get('кот')?.(answer('кот', [result('old')], null));
    await settle();
    expect(actor.getSnapshot().context.results.map((r: SearchResult) => r.message.id)).toEqual(['new']);
    vi.useRealTimers();
  });

  it('pages on with nextBefore, and chooses with the arrows and Enter', async () => {
    const { actor, asked, opened } = start(async (r) =>
      r.before ? answer(r.q, [result('m3', 'c3')], null) : answer(r.q, [result('m1'), result('m2', 'c2')], 'm2'),
    );
    actor.send({ type: 'search.input', text: 'собака' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    actor.send({ type: 'search.more' });
    await settle();
    expect(asked).toEqual([{ q: 'собака' }, { q: 'собака', before: 'm2' }]);
    expect(actor.getSnapshot().context.results).toHaveLength(3);
    actor.send({ type: 'search.move', by: -1 });
    expect(actor.getSnapshot().context.active).toBe(2);
    actor.send({ type: 'search.move', by: 1 });
    actor.send({ type: 'search.move', by: 1 });
    actor.send({ type: 'search.choose' });
    expect(opened).toEqual([{ type: 'chats.open', conversationId: 'c2', messageId: 'm2' }]);
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().context).toMatchObject({ query: '', results: [], active: -1 });
    expect(actor.getSnapshot().hasTag('empty')).toBe(true);
    vi.useRealTimers();
  });

  it('a thread reply opens its conversation at the root and waits for the thread to be shown', async () => {
    const { actor, opened } = start(async (r) => answer(r.q, [result('m1'), result('m5', 'c2', 'r5')], null));
    actor.send({ type: 'search.input', text: 'пирог' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    actor.send({ type: 'search.choose', index: 1 });
    expect(opened).toEqual([{ type: 'chats.open', conversationId: 'c2', messageId: 'r5' }]);
    expect(actor.getSnapshot().context.thread).toEqual({ conversationId: 'c2', rootId: 'r5', messageId: 'm5' });
    actor.send({ type: 'search.threadShown' });
    expect(actor.getSnapshot().context.thread).toBeNull();
    // A message of the timeline asks for no thread.
    actor.send({ type: 'search.choose', index: 1 });
    actor.send({ type: 'search.choose', index: 0 });
    expect(opened.at(-1)).toEqual({ type: 'chats.open', conversationId: 'c1', messageId: 'm1' });
    expect(actor.getSnapshot().context.thread).toBeNull();
    vi.useRealTimers();
  });

  it('a chosen reply whose chat never opened is dropped when another chat is selected, not kept for later', async () => {
    const { actor, chats } = start(async (r) => answer(r.q, [result('m1'), result('m5', 'c2', 'r5')], null));
    actor.send({ type: 'search.input', text: 'пирог' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    actor.send({ type: 'search.choose', index: 1 });
    // Its own chat being selected keeps it for the panel; another chat drops it.
    chats.send({ type: 'select', conversationId: 'c2' });
    expect(actor.getSnapshot().context.thread).toEqual({ conversationId: 'c2', rootId: 'r5', messageId: 'm5' });
    chats.send({ type: 'select', conversationId: 'c1' });
    expect(actor.getSnapshot().context.thread).toBeNull();
    vi.useRealTimers();
  });

  it('says when nothing matches, and offers a retry after a failure', async () => {
    let fail = true;
    const { actor } = start(async (r) => {
      if (fail) throw new Error('offline');
      return answer(r.q, [], null, r.conversationId ? { conversationId: r.conversationId } : {});
    });
    actor.send({ type: 'search.scope', conversationId: 'c9' });
    actor.send({ type: 'search.input', text: 'ёж' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(SEARCH_FAILED);
    fail = false;
    actor.send({ type: 'search.retry' });
    await settle();
    expect(actor.getSnapshot().hasTag('nothing')).toBe(true);
    expect(NOTHING_FOUND).toBe('Ничего не найдено');
    vi.useRealTimers();
  });

  it('filters: a chip searches the query again at once, typing keeps them, clearing drops them', async () => {
    const { actor, asked } = start(async (r) => answer(r.q, [result('m1')], null, r));
    const anna = { id: 'u7', name: 'Анна' };
    // No words yet: a person's filter lists their messages at once.
    actor.send({ type: 'search.filter', filters: { from: anna } });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await settle();
    expect(asked).toEqual([{ from: 'u7' }]);
    actor.send({ type: 'search.input', text: 'поход' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    expect(asked.at(-1)).toEqual({ q: 'поход', from: 'u7' });
    actor.send({ type: 'search.filter', filters: { kind: 'photo', since: '2026-05-01', until: '2026-05-02' } });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await settle();
    expect(asked.at(-1)).toEqual({ q: 'поход', from: 'u7', kind: 'photo', since: '2026-05-01', until: '2026-05-02' });
    actor.send({ type: 'search.filter', filters: { chat: { id: 'c4', title: 'Поход' }, from: null } });
    await settle();
    expect(asked.at(-1)).toEqual({
      q: 'поход',
      conversationId: 'c4',
      kind: 'photo',
      since: '2026-05-01',
      until: '2026-05-02',
    });
    expect(actor.getSnapshot().hasTag('results')).toBe(true);
    actor.send({ type: 'search.input', text: 'походы' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    expect(asked.at(-1)).toMatchObject({ q: 'походы', conversationId: 'c4', kind: 'photo' });
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().context.filters).toEqual({
      from: null,
      chat: null,
      kind: null,
      since: null,
      until: null,
    });
    vi.useRealTimers();
  });

  it('without words: a person, a kind or a date lists, the chat alone waits for words, the last one dropped empties', async () => {
    const { actor, asked } = start(async (r) => answer(r.q, [result('m1')], null, r));
    actor.send({ type: 'search.filter', filters: { chat: { id: 'c4', title: 'Поход' } } });
    expect(actor.getSnapshot().hasTag('empty')).toBe(true);
    expect(asked).toEqual([]);
    actor.send({ type: 'search.filter', filters: { kind: 'photo' } });
    await settle();
    expect(asked).toEqual([{ conversationId: 'c4', kind: 'photo' }]);
    expect(actor.getSnapshot().hasTag('results')).toBe(true);
    // Words typed and erased: the filters list again after the pause, not an empty field's nothing.
    actor.send({ type: 'search.input', text: 'кот' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    actor.send({ type: 'search.input', text: '' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    await settle();
    expect(asked.at(-1)).toEqual({ conversationId: 'c4', kind: 'photo' });
    expect(actor.getSnapshot().hasTag('results')).toBe(true);
    // The kind dropped: only the chat is left, and without words that asks nothing.
    actor.send({ type: 'search.filter', filters: { kind: null } });
    expect(actor.getSnapshot().hasTag('empty')).toBe(true);
    expect(asked).toHaveLength(3);
    vi.useRealTimers();
  });

  it('an answer for other filters is not taken', async () => {
    const pending: ((a: SearchAnswer) => void)[] = [];
    const { actor } = start((r) => new Promise((resolve) => pending.push((a) => resolve({ ...a, request: r }))));
    actor.send({ type: 'search.input', text: 'кот' });
    vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
    actor.send({ type: 'search.filter', filters: { kind: 'voice' } });
    pending[1]?.(answer('кот', [result('voice')], null));
    await settle();
    pending[0]?.(answer('кот', [result('any')], null));
    await settle();
    expect(actor.getSnapshot().context.results.map((r: SearchResult) => r.message.id)).toEqual(['voice']);
    vi.useRealTimers();
  });
});
