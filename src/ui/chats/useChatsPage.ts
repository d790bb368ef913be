// The chats page's view of the chats actor: list tiles, the selection and the children that serve it.
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ComposerRef } from '../../machines/composer/composer/composer.protocol';
import type { ConversationRef } from '../../machines/conversation/conversation/conversation.protocol';
import { CHATS_TAGS } from '../../machines/chats/chats/chats.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { chatTile } from '../conversation/index';

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
  const chats = useSystemActor('chats');
  if (!chats) throw new Error('the chats actor is not running');
  const me = useSelector(chats, (s) => s.context.me);
  const entries = useSelector(chats, (s) => s.context.entries);
  const selectedId = useSelector(chats, (s) => s.context.selectedId);
  const loaded = useSelector(chats, (s) => s.context.loaded);
  const conversation = useSelector(chats, (s) => s.children.conversation as ConversationRef | undefined);
  const composer = useSelector(chats, (s) => s.children.composer as ComposerRef | undefined);
  // The selected conversation's machines could not be fetched (its pane offers a retry).
  const failed = useSelector(chats, (s) => s.hasTag(CHATS_TAGS.conversationFailed));
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
  const prepare = useCallback(() => chats.send({ type: 'chats.prepare' }), [chats]);
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
