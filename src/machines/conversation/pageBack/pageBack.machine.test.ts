import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, sendTo, setup, toPromise } from 'xstate';
import { message } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { Message } from '../../../contract/entities';
import { type Page, type PageBackOutput, type PageInput, pageBackMachine, reached } from './pageBack.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));
const m0 = message('m0', 'u2', 0);
const mx = message('mx', 'u2', 5);
const m1 = message('m1', 'u2', 10);
const page = (messages: Message[], hasMore: boolean): Page => ({ messages, hasMore });

type Snap = ReturnType<typeof pageBackMachine.getInitialSnapshot>;
const placing = (s: Snap) => s.matches('placing');

describeModel({
  name: 'pageBack',
  machine: pageBackMachine.provide({ actors: { fetchPage: hang as never } }),
  // A quoted message far back (m0), and the first of two unread messages.
  inputs: [
    { conversationId: 'c1', before: 'm1', goal: { messageId: 'm0' } },
    { conversationId: 'c1', before: 'm1', goal: { unread: 2, me: 'me' } },
  ],
  events: {
    // The page holding the goal (m0: the message, and the second unread), one without it, the last one.
    'xstate.done.actor.page': () => [
      { type: 'xstate.done.actor.page', output: page([m0], true) },
      { type: 'xstate.done.actor.page', output: page([mx], true) },
      { type: 'xstate.done.actor.page', output: page([], false) },
    ],
    'xstate.error.actor.page': () => [{ type: 'xstate.error.actor.page', error: new Error('offline') }],
    // The parent's answer: its history before the page (once per path: the first page only).
    'pageBack.history': (s) =>
      placing(s) && s.context.before === 'm1' ? [{ type: 'pageBack.history', messages: [m1] }] : [],
    'pageBack.retarget': (s) =>
      s.matches('fetching') && 'messageId' in s.context.goal && s.context.goal.messageId === 'm0'
        ? [{ type: 'pageBack.retarget', messageId: 'mx' }]
        : [],
  },
});

describe('reached', () => {
  it('a message: the page holds it; the first unread: enough unread loaded, or UNREAD_REACH messages', () => {
    expect(reached({ messageId: 'm0' }, [m1], page([m0], true))).toBe(true);
    expect(reached({ messageId: 'm0' }, [m0, m1], page([mx], true))).toBe(false);
    expect(reached({ unread: 2, me: 'me' }, [m1], page([mx], true))).toBe(true);
    expect(reached({ unread: 3, me: 'me' }, [m1], page([mx, m1], true))).toBe(false);
    const many = Array.from({ length: 1000 }, (_, i) => message(`n${i}`, 'me', i));
    expect(reached({ unread: 5, me: 'me' }, many, page([], true))).toBe(true);
  });
});

describe('pageBack under a parent that keeps the history', () => {
  /** A parent as the conversation is: each page in front of its history, answered with the history before it. */
  function run(pages: (i: PageInput) => Page, goal: { messageId: string } | { unread: number; me: string }) {
    const seen: PageInput[] = [];
    const child = pageBackMachine.provide({
      actors: {
        fetchPage: fromPromise(async ({ input }: { input: PageInput }) => {
          seen.push(input);
          return pages(input);
        }),
      },
    });
    const parent = setup({
      types: { context: {} as { messages: Message[]; found: boolean | null } },
      actors: { pageBack: child },
    }).createMachine({
      context: { messages: [m1], found: null },
      invoke: {
        id: 'pageBack',
        src: 'pageBack',
        input: { conversationId: 'c1', before: 'm1', goal },
        onDone: { target: '.done', actions: assign({ found: ({ event }) => (event.output as PageBackOutput).found }) },
      },
      on: {
        'pageBack.page': {
          actions: [
            sendTo('pageBack', ({ context }) => ({ type: 'pageBack.history', messages: context.messages })),
            assign({
              messages: ({ context, event }) => [
                ...(event as unknown as { page: Page }).page.messages,
                ...context.messages,
              ],
            }),
          ],
        },
      },
      initial: 'paging',
      states: { paging: {}, done: { type: 'final' } },
    });
    const actor = createActor(parent).start();
    return { actor, seen, done: toPromise(actor) };
  }

  it('pages back before the oldest message until the quote is in, each page in the parent as it comes', async () => {
    const { actor, seen, done } = run((i) => (i.before === 'm1' ? page([mx], true) : page([m0], true)), {
      messageId: 'm0',
    });
    await done;
    expect(seen).toEqual([
      { conversationId: 'c1', before: 'm1', limit: 200 },
      { conversationId: 'c1', before: 'mx', limit: 200 },
    ]);
    expect(actor.getSnapshot().context).toEqual({ messages: [m0, mx, m1], found: true });
  });

  it('ends not found when the server has no more, and when it does not answer', async () => {
    const none = run(() => page([mx], false), { messageId: 'm0' });
    await none.done;
    expect(none.actor.getSnapshot().context.found).toBe(false);
    const offline = run(
      () => {
        throw new Error('offline');
      },
      { messageId: 'm0' },
    );
    await offline.done;
    expect(offline.actor.getSnapshot().context).toEqual({ messages: [m1], found: false });
  });
});
