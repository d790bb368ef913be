// A thread reply chosen among the search results: its conversation's pane opens the thread's panel at the reply
// (once, and only in that conversation), and the panel highlights the reply. The real search machine stands behind
// the hook; the chats actor is a stand-in that records what it is asked.
import { render, renderHook, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { message } from '../../../tests/client/chat-fixtures';
import type { SearchResult } from '../../contract/entities';
import { TIMINGS } from '../../contract/limits';
import { searchMachine } from '../../machines/search/search/search.machine';
import type { SearchAnswer, SearchRef, SearchRequest } from '../../machines/search/search/search.protocol';
import { ThreadPanel } from '../threads/ThreadPanel';
import { threadPanelProps, threadRow } from '../../../tests/client/thread-panel-props';
import { useFoundThread } from './useFoundThread';

afterEach(() => vi.useRealTimers());

const hit = (id: string, conversationId: string, threadRootId?: string): SearchResult => ({
  conversationId,
  message: message(id, 'u2', 1, { conversationId, ...(threadRootId ? { threadRootId } : {}) }),
  snippet: id,
  highlights: [],
});

async function searched(): Promise<{ actor: SearchRef; opened: unknown[] }> {
  vi.useFakeTimers();
  const opened: unknown[] = [];
  const chats = createMachine({ on: { '*': { actions: ({ event }) => opened.push(event) } } });
  const machine = searchMachine.provide({
    actors: {
      session: fromCallback(() => () => {}),
      find: fromPromise<SearchAnswer, SearchRequest>(async ({ input }) => ({
        results: [hit('m1', 'c1'), hit('m5', 'c2', 'r5')],
        nextBefore: null,
        request: input,
      })),
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
  const actor = root.system.get('search') as SearchRef;
  actor.send({ type: 'search.input', text: 'пирог' });
  vi.advanceTimersByTime(TIMINGS.searchDebounceMs);
  vi.useRealTimers();
  await waitFor(actor, (s) => s.hasTag('results'));
  return { actor, opened };
}

it('a found reply opens its thread at it in its own conversation, once', async () => {
  const { actor, opened } = await searched();
  const show = vi.fn();
  const pane = renderHook(({ id }) => useFoundThread(actor, id, show), { initialProps: { id: 'c1' } });
  actor.send({ type: 'search.choose', index: 1 });
  expect(opened).toEqual([{ type: 'chats.open', conversationId: 'c2', messageId: 'r5' }]);
  pane.rerender({ id: 'c1' });
  expect(show).not.toHaveBeenCalled(); // another conversation's pane leaves it waiting
  pane.rerender({ id: 'c2' });
  expect(show).toHaveBeenCalledWith('r5', 'm5');
  expect(actor.getSnapshot().context.thread).toBeNull();
  pane.rerender({ id: 'c2' });
  expect(show).toHaveBeenCalledTimes(1);
  // A message of the timeline opens no thread.
  actor.send({ type: 'search.choose', index: 0 });
  pane.rerender({ id: 'c1' });
  expect(show).toHaveBeenCalledTimes(1);
});

it('the panel marks the found reply', () => {
  const props = threadPanelProps({ root: threadRow('r5'), rows: [threadRow('m4'), threadRow('m5')], found: 'm5' });
  render(<ThreadPanel {...props} />);
  const [other, found] = screen.getAllByTestId('thread-reply');
  expect(found).toHaveAttribute('aria-current', 'true');
  expect(found).toHaveClass('thread-msg-found');
  expect(other).not.toHaveAttribute('aria-current');
});
