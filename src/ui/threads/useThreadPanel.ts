// The thread panel: its actor (alive while the panel is open) as plain values and callbacks — the root, the replies
// with their senders' names, whether there are older ones, the composer's text, following, and the error to show.
// Escape closes the panel.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo } from 'react';
import type { Message, PublicUser } from '../../contract/entities';
import { displayName, repliesText } from '../../contract/format';
import { THREAD_TAGS } from '../../machines/threads/threadPanel/threadPanel.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export interface ThreadMessageView {
  id: string;
  sender: { id: string; displayName: string; avatarUrl: string | null };
  own: boolean;
  text: string;
  time: string;
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });

/** What a message shows in the panel: its text, else what it carries. */
function textOf(m: Message): string {
  if (m.content) return m.content;
  if (m.type === 'VOICE') return 'Голосовое сообщение';
  const first = m.attachments[0];
  if (!first) return '';
  return first.type === 'IMAGE' ? 'Изображение' : `Файл: ${first.name ?? 'файл'}`;
}

export function useThreadPanel(options: {
  conversationId: string;
  rootId: string;
  me: string;
  people: ReadonlyMap<string, PublicUser>;
  onClose(): void;
  /** The reply a search result opened the thread at: highlighted once it is shown. */
  found?: string | null;
}) {
  const { conversationId, rootId, me, people, onClose } = options;
  const actor = useOwnedActor('threadPanel', { conversationId, rootId });
  const loading = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.loading) ?? true);
  const failed = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.failed) ?? false);
  const loadingMore = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.loadingMore) ?? false);
  const sending = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.sending) ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.busy) ?? false);
  const root = useSelector(actor, (s) => s?.context.root ?? null);
  const replies = useSelector(actor, (s) => s?.context.replies);
  const hasMore = useSelector(actor, (s) => s?.context.hasMore ?? false);
  const following = useSelector(actor, (s) => s?.context.following ?? false);
  const draft = useSelector(actor, (s) => s?.context.draft ?? '');
  const error = useSelector(actor, (s) => s?.context.error ?? null);

  useEffect(() => {
    const sub = actor?.on('thread.closed', () => onClose());
    return () => sub?.unsubscribe();
  }, [actor, onClose]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const view = useCallback(
    (m: Message): ThreadMessageView => {
      const u = people.get(m.senderId);
      return {
        id: m.id,
        sender: { id: m.senderId, displayName: u ? displayName(u) : 'Участник', avatarUrl: u?.avatarUrl ?? null },
        own: m.senderId === me,
        text: textOf(m),
        time: timeOf(m.createdAt),
      };
    },
    [people, me],
  );
  const rows = useMemo(() => (replies ?? []).map(view), [replies, view]);
  // «@Имя» in the text names that member (as in the main composer).
  const mentions = useMemo(
    () => [...people.values()].filter((u) => u.id !== me && draft.includes(`@${displayName(u)}`)).map((u) => u.id),
    [people, me, draft],
  );

  return {
    status: failed ? ('failed' as const) : loading ? ('loading' as const) : ('ready' as const),
    root: root ? view(root) : null,
    count: repliesText(root?.thread?.replyCount ?? rows.length),
    rows,
    found: options.found ?? null,
    hasMore,
    loadingMore,
    sending,
    busy,
    following,
    draft,
    error,
    onMore: () => actor?.send({ type: 'thread.more' }),
    onText: (text: string) => actor?.send({ type: 'thread.input', text }),
    onSend: () => actor?.send({ type: 'thread.send', mentions }),
    onFollow: () => actor?.send({ type: 'thread.follow', follow: !following }),
    onRetry: () => actor?.send({ type: 'thread.retry' }),
    onClose: () => actor?.send({ type: 'thread.close' }),
  };
}

export type ThreadPanelProps = ReturnType<typeof useThreadPanel>;
