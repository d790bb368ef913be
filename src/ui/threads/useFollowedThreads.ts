// «Обсуждения» at the top of the chat list: its actor (alive while the list is shown) as plain values — the followed
// threads with their group's title, the root's words and unread replies, and the total — and callbacks. Opening one
// opens its group with the thread's panel.
import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ConversationEntry } from '../../contract/entities';
import { conversationTitle, replyPreview } from '../../contract/format';
import { conversationPath } from '../../machines/chats/navigation/navigation.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export interface FollowedThreadView {
  rootId: string;
  conversationId: string;
  title: string;
  preview: string;
  unread: number;
}

export function useFollowedThreads(entries: readonly ConversationEntry[], me: string | null) {
  const actor = useOwnedActor('followedThreads');
  const threads = useSelector(actor, (s) => s?.context.threads);
  const expanded = useSelector(actor, (s) => s?.context.expanded ?? false);
  const navigate = useNavigate();
  const rows = useMemo((): FollowedThreadView[] => {
    const byId = new Map(entries.map((e) => [e.conversation.id, e.conversation]));
    return (threads ?? []).flatMap((t) => {
      const c = byId.get(t.conversationId);
      return c
        ? [
            {
              rootId: t.root.id,
              conversationId: t.conversationId,
              title: conversationTitle(c, me),
              preview: replyPreview(t.root.content || 'Вложение'),
              unread: t.unread,
            },
          ]
        : [];
    });
  }, [threads, entries, me]);
  const onOpen = useCallback(
    (row: FollowedThreadView) => navigate(conversationPath(row.conversationId), { state: { thread: row.rootId } }),
    [navigate],
  );
  return {
    rows,
    unread: rows.reduce((n, r) => n + r.unread, 0),
    expanded,
    onToggle: () => actor.send({ type: 'threads.toggle' }),
    onOpen,
  };
}

export type FollowedThreadsProps = ReturnType<typeof useFollowedThreads>;
