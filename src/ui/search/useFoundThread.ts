// A thread reply chosen among the search results (the list's or the open conversation's): once its conversation is
// the one on screen, its thread's panel opens at the reply and the search actor hears that it did.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { SearchRef } from '../../machines/search/search/search.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import type { OwnedRef } from '../app/useOwnedActor';

export type ShowThread = (rootId: string, messageId: string) => void;

export function useFoundThread(actor: OwnedRef<SearchRef> | undefined, conversationId: string, show: ShowThread): void {
  const found = useSelector(actor, (s) => s?.context.thread ?? null);
  useEffect(() => {
    if (!found || found.conversationId !== conversationId) return;
    show(found.rootId, found.messageId);
    actor?.send({ type: 'search.threadShown' });
  }, [found, conversationId, show, actor]);
}

/** The chats list's search (session-long): a reply chosen there. */
export function useListFoundThread(conversationId: string, show: ShowThread): void {
  useFoundThread(useSystemActor('search'), conversationId, show);
}
