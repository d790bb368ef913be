// The chats page's view of the chats actor: list tiles, the selection, the open conversation (its loader's child)
// and the composer.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { conversationLoaderOf } from '../../machines/chats/chats/chats.protocol';
import { LOADER_TAGS } from '../../machines/chats/conversationLoader/conversationLoader.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { chatTile } from '../conversation/index';
import { useChatsActor, useOpenConversation } from '../shared/useChatList';

/** The current time, renewed every `ms` (last-seen texts age while the page is open). */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function useChatsPage() {
  const chats = useChatsActor();
  if (!chats) throw new Error('the chats actor is not running');
  const me = useSelector(chats, (s) => s.context.me);
  const entries = useSelector(chats, (s) => s.context.entries);
  const selectedId = useSelector(chats, (s) => s.context.selectedId);
  const loaded = useSelector(chats, (s) => s.context.loaded);
  const loader = useSelector(chats, conversationLoaderOf);
  const conversation = useOpenConversation(chats);
  const composer = useSystemActor('composer');
  // The selected conversation's machines could not be fetched (its pane offers a retry).
  const failed = useSelector(loader, (s) => s?.hasTag(LOADER_TAGS.conversationFailed) ?? false);
  // Drafts of the conversations not in front, for «Черновик: …» on their tiles.
  const drafts = useSelector(composer, (s) => s?.context.drafts);
  const now = useNow();
  // While this page is mounted the selected conversation is in front of the user (for the unread rule, which the
  // notification sound follows).
  useEffect(() => {
    chats.send({ type: 'chats.viewing', viewing: true });
    return () => chats.send({ type: 'chats.viewing', viewing: false });
  }, [chats]);
  const tiles = useMemo(
    () => entries.map((e) => chatTile(e, me, selectedId, now, drafts?.[e.conversation.id]?.text ?? null)),
    [entries, me, selectedId, now, drafts],
  );
  const hasSecret = useMemo(() => entries.some((e) => e.conversation.secret), [entries]);
  const selectedEntry = useMemo(
    () => entries.find((e) => e.conversation.id === selectedId) ?? null,
    [entries, selectedId],
  );
  const open = useCallback((conversationId: string) => chats.send({ type: 'chats.open', conversationId }), [chats]);
  const call = useCallback((video: boolean) => chats.send({ type: 'chats.call', video }), [chats]);
  /** A conversation is about to be opened: its machines are fetched now (or again, after a failure). */
  const prepare = useCallback(() => loader?.send({ type: 'loader.prepare' }), [loader]);
  return {
    me,
    tiles,
    entries,
    hasSecret,
    loaded,
    selectedId,
    selectedEntry,
    conversation,
    composer,
    failed,
    now,
    open,
    call,
    prepare,
  };
}
