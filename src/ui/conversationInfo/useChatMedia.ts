// «Медиа», «Файлы», «Ссылки», «Голосовые»: the chatMedia actor (alive while «Информация» is open) as plain values and
// callbacks. A jump to a message leaves the panel on a narrow screen, where it covers the chat.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import {
  CHAT_MEDIA_TAGS,
  type ChatMediaEntry,
  type ChatMediaKind,
} from '../../machines/conversationInfo/chatMedia/chatMedia.protocol';
import { useOwnedActor } from '../app/useOwnedActor';
import { useMediaQuery } from '../shared/useMediaQuery';

const NO_ENTRIES: ChatMediaEntry[] = [];

export function useChatMedia(options: {
  conversationId: string;
  userId: string;
  secret: boolean;
  /** Member names by id (the entries' senders). */
  names: ReadonlyMap<string, string>;
  onClose(): void;
}) {
  const { conversationId, userId, secret } = options;
  const actor = useOwnedActor('chatMedia', { conversationId, userId, secret });
  const tab = useSelector(actor, (s) => s?.context.tab ?? 'media');
  const entries = useSelector(actor, (s) => (s ? s.context.tabs[s.context.tab].entries : NO_ENTRIES));
  const loaded = useSelector(actor, (s) => (s ? s.context.tabs[s.context.tab].loaded : false));
  const more = useSelector(actor, (s) => (s ? s.context.tabs[s.context.tab].nextBefore !== null : false));
  const loading = useSelector(actor, (s) => s?.hasTag(CHAT_MEDIA_TAGS.loading) ?? true);
  const loadingMore = useSelector(actor, (s) => s?.hasTag(CHAT_MEDIA_TAGS.loadingMore) ?? false);
  const error = useSelector(actor, (s) => (s?.hasTag(CHAT_MEDIA_TAGS.failed) ? s.context.error : null));
  const narrow = useMediaQuery('(max-width: 768px)');
  const close = useRef(options.onClose);
  close.current = narrow ? options.onClose : () => {};
  useEffect(() => {
    const sub = actor.on('chatMedia.jumped', () => close.current());
    return () => sub.unsubscribe();
  }, [actor]);
  return {
    tab,
    entries,
    loaded,
    more,
    loading,
    loadingMore,
    error,
    names: options.names,
    onTab: (kind: ChatMediaKind) => actor.send({ type: 'chatMedia.tab', kind }),
    onMore: () => actor.send({ type: 'chatMedia.more' }),
    onRetry: () => actor.send({ type: 'chatMedia.retry' }),
    onJump: (messageId: string) => actor.send({ type: 'chatMedia.jump', messageId }),
  };
}
export type ChatMediaView = ReturnType<typeof useChatMedia>;
