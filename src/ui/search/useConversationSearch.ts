// The open conversation's search bar: the 'conversationSearch' actor narrowed to this conversation while the
// bar is open. ↑ steps to the next older hit (paging on at the end of what is loaded), ↓ to the newer one; each
// step opens the hit, which the chats actor turns into a jump of the open conversation.
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { ConversationSearchBarProps } from './ConversationSearchBar';
import { type ShowThread, useFoundThread } from './useFoundThread';
import { useSearchView } from './useSearch';

export function useConversationSearch(
  conversationId: string,
  /** A hit that is a thread reply opens its thread's panel at it. */
  showThread: ShowThread,
): {
  open: boolean;
  show(): void;
  /** Opens the bar at its calendar («Перейти к дате» in the header). */
  showDate(): void;
  bar: ConversationSearchBarProps;
} {
  // The open conversation's own search: alive while its pane is shown.
  const actor = useOwnedActor('conversationSearch');
  const search = useSearchView(actor);
  useFoundThread(actor, conversationId, showThread);
  // «Перейти к дате»: its own actor, alive with the bar's pane.
  const dateJump = useOwnedActor('dateJump');
  const dating = useSelector(dateJump, (s) => s?.hasTag('looking') ?? false);
  const dateError = useSelector(dateJump, (s) => (s?.hasTag('failed') ? s.context.error : null));
  const [open, setOpen] = useState(false);
  const [dateFirst, setDateFirst] = useState(false);
  const { scope } = search;
  // A bar opened on another conversation starts empty; closing forgets the query.
  useEffect(() => {
    if (open) scope(conversationId);
    return () => scope(null);
  }, [open, conversationId, scope]);

  const step = (by: 1 | -1) => {
    const next = search.active + by;
    if (by > 0 && next >= search.results.length) {
      if (search.hasMore) search.more();
      return;
    }
    if (next < 0) return;
    search.choose(next);
  };
  return {
    open,
    show: () => {
      setDateFirst(false);
      setOpen(true);
    },
    showDate: () => {
      setDateFirst(true);
      setOpen(true);
    },
    bar: {
      query: search.query,
      status: search.status,
      position: search.active + 1,
      total: search.results.length,
      more: search.hasMore,
      error: search.error,
      onInput: search.input,
      onOlder: () => step(1),
      onNewer: () => step(-1),
      onClear: search.clear,
      onRetry: search.retry,
      onClose: () => setOpen(false),
      dateFirst,
      dating,
      dateError,
      onJumpToDate: (day: string) => dateJump?.send({ type: 'dateJump.go', conversationId, day }),
    },
  };
}
