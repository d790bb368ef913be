// The thread panel: its actor (alive while the panel is open) as plain values and callbacks — the root, the replies
// with their senders' names and files, whether there are older ones, the composer's text, files, upload progress and
// quote, following, and the error to show. Escape closes the panel.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo } from 'react';
import type { Message, PublicUser } from '../../contract/entities';
import { displayName, repliesText } from '../../contract/format';
import { THREAD_TAGS, type ThreadFile } from '../../machines/threads/threadPanel/threadPanel.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export interface ThreadMessageView {
  id: string;
  sender: { id: string; displayName: string; avatarUrl: string | null };
  own: boolean;
  text: string;
  time: string;
  /** Its pictures and files, as the timeline shows them. */
  attachments: { url: string; kind: 'IMAGE' | 'FILE' | 'AUDIO'; name: string }[];
  /** The reply it quotes («Ответ на:»). */
  reply: { id: string; preview: string } | null;
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' });

/** A message in one line (a quote's preview): its text, else what it carries. */
function textOf(m: Message): string {
  if (m.content) return m.content;
  if (m.type === 'VOICE') return 'Голосовое сообщение';
  const first = m.attachments[0];
  if (!first) return '';
  return first.type === 'IMAGE' ? 'Изображение' : `Файл: ${first.name ?? 'файл'}`;
}

const nameOf = (a: Message['attachments'][number]) => a.name ?? a.url.split('/').pop() ?? 'файл';

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
  const uploading = useSelector(actor, (s) => s?.hasTag(THREAD_TAGS.uploading) ?? false);
  const progress = useSelector(actor, (s) => s?.context.progress ?? null);
  const files = useSelector(actor, (s) => s?.context.files);
  const quote = useSelector(actor, (s) => s?.context.quote ?? null);

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
        // A picture or file shows as itself; a voice message (not sent from here) as its words.
        text: m.content || (m.type === 'VOICE' ? 'Голосовое сообщение' : ''),
        time: timeOf(m.createdAt),
        attachments: m.attachments
          .filter((a) => a.type !== 'AUDIO')
          .map((a) => ({ url: a.url, kind: a.type, name: nameOf(a) })),
        reply: m.replyTo ? { id: m.replyTo.id, preview: m.replyTo.content || 'Вложение' } : null,
      };
    },
    [people, me],
  );
  const rows = useMemo(() => (replies ?? []).map(view), [replies, view]);
  const quoted = quote ? (replies ?? []).find((m) => m.id === quote) : undefined;
  const picked = useMemo(() => (files ?? []).map((f: ThreadFile) => f.name ?? 'файл'), [files]);
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
    /** The files to send with the reply, by name. */
    files: picked,
    uploading,
    progress,
    quote: quoted ? { id: quoted.id, preview: textOf(quoted) } : null,
    onMore: () => actor?.send({ type: 'thread.more' }),
    onText: (text: string) => actor?.send({ type: 'thread.input', text }),
    onSend: () => actor?.send({ type: 'thread.send', mentions }),
    onAttach: (picked: ThreadFile[]) => actor?.send({ type: 'thread.attach', files: picked }),
    onDetach: (index: number) => actor?.send({ type: 'thread.detach', index }),
    onQuote: (messageId: string | null) => actor?.send({ type: 'thread.quote', messageId }),
    onFollow: () => actor?.send({ type: 'thread.follow', follow: !following }),
    onRetry: () => actor?.send({ type: 'thread.retry' }),
    onClose: () => actor?.send({ type: 'thread.close' }),
  };
}

export type ThreadPanelProps = ReturnType<typeof useThreadPanel>;
