// "Page until found" (the conversation actor's child 'pageBack', docs/behaviour.md §2): larger older pages, one after
// another, each handed to the parent as it comes, until the goal is in or the server has no more. Two goals: a
// message (a jump to a quote, a search result far back: the page holding it) and the first unread message on
// opening (enough pages for the unread count, at most UNREAD_REACH messages). The history stays the parent's: it
// answers every page with its messages, and the goal and the next page are judged on them, as they are then.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { Message } from '../../../contract/entities';
import { LIMITS, UNREAD_REACH } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import { countUnreadable, prependPage } from '../conversation/history';
import type {
  Page,
  PageBackContext,
  PageBackEffects,
  PageBackEvent,
  PageBackGoal,
  PageBackInput,
  PageBackOutput,
  PageBackParentEvent,
} from './pageBack.protocol';

export * from './pageBack.protocol';

/**
 * The goal is in with this page: the message is on it, or (the first unread) as many unread messages as the
 * conversation was opened with are loaded, or UNREAD_REACH messages in all (the divider then sits on the oldest).
 */
export function reached(goal: PageBackGoal, history: Message[], page: Page): boolean {
  if ('messageId' in goal) return page.messages.some((m) => m.id === goal.messageId);
  const ids = new Set(history.map((m) => m.id));
  const all = [...page.messages.filter((m) => !ids.has(m.id)), ...history];
  return all.length >= UNREAD_REACH || countUnreadable(all, goal.me) >= goal.unread;
}

/** The server has older messages than this page. */
export const morePages = (page: Page) => page.hasMore && page.messages.length > 0;

export const pageBackMachine = setup({
  types: {
    context: {} as PageBackContext,
    events: {} as PageBackEvent,
    input: {} as PageBackInput,
    output: {} as PageBackOutput,
  },
  actors: {
    fetchPage: notWired('pageBack.fetchPage') as PageBackEffects['fetchPage'],
  },
  guards: {
    reached: ({ context, event }) => {
      assertEvent(event, 'pageBack.history');
      return context.page !== null && reached(context.goal, event.messages, context.page);
    },
    morePages: ({ context }) => context.page !== null && morePages(context.page),
  },
  actions: {
    givePage: enqueueActions(({ enqueue, self }, page: Page) => {
      enqueue.assign({ page });
      if (self._parent) enqueue.sendParent({ type: 'pageBack.page', page } satisfies PageBackParentEvent);
    }),
    // The next page comes before the oldest of the parent's history with this page in.
    nextBefore: assign(({ context, event }) => {
      assertEvent(event, 'pageBack.history');
      const older = context.page ? prependPage(event.messages, context.page.messages).messages : event.messages;
      return { before: older[0]?.id, page: null };
    }),
    markFound: assign({ found: true }),
    retarget: assign({
      goal: ({ context, event }) => {
        assertEvent(event, 'pageBack.retarget');
        return 'messageId' in context.goal ? { messageId: event.messageId } : context.goal;
      },
    }),
  },
}).createMachine({
  id: 'pageBack',
  context: ({ input }) => ({ ...input, page: null, found: false }),
  on: { 'pageBack.retarget': { actions: 'retarget' } },
  output: ({ context }) => ({ found: context.found }),
  initial: 'fetching',
  states: {
    fetching: {
      invoke: {
        id: 'page',
        src: 'fetchPage',
        // Larger pages: the goal may be far back.
        input: ({ context }) => ({
          conversationId: context.conversationId,
          before: context.before,
          limit: LIMITS.messagesPageMax,
        }),
        onDone: { target: 'placing', actions: { type: 'givePage', params: ({ event }) => event.output } },
        // What is loaded stays; the goal is not reached.
        onError: 'done',
      },
    },
    /** The page is with the parent: its answer tells whether the goal is in. */
    placing: {
      on: {
        'pageBack.history': [
          { guard: 'reached', target: 'done', actions: 'markFound' },
          { guard: 'morePages', target: 'fetching', actions: 'nextBefore' },
          { target: 'done' },
        ],
      },
    },
    done: { type: 'final' },
  },
});

export type PageBackActorRef = import('xstate').ActorRefFrom<typeof pageBackMachine>;
