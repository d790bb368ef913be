// The selected conversation's pane while its machines are on their way (its first opening, before their chunk is
// here): the render suspends, as it does for a view whose chunk is loading, so the page keeps what it showed until
// the conversation can be drawn (no «Выберите чат» in between).
import { use } from 'react';
import { CHATS_TAGS, type ChatsRef } from '../../machines/chats/chats/chats.protocol';
import { useSystemActor } from '../app/RuntimeContext';

type Snapshot = ReturnType<ChatsRef['getSnapshot']>;

/** Selected, and its actor neither running nor given up on. */
const waiting = (s: Snapshot) =>
  s.context.selectedId !== null && !s.children.conversation && !s.hasTag(CHATS_TAGS.conversationFailed);

/** One promise per chats actor while it waits (React needs the same one on every render that suspends). */
const waits = new WeakMap<ChatsRef, Promise<void>>();

function waitOver(chats: ChatsRef): Promise<void> {
  let wait = waits.get(chats);
  if (!wait) {
    wait = new Promise<void>((resolve) => {
      const sub = chats.subscribe((s) => {
        if (waiting(s)) return;
        sub.unsubscribe();
        waits.delete(chats);
        resolve();
      });
    });
    waits.set(chats, wait);
  }
  return wait;
}

export function ConversationWait() {
  const chats = useSystemActor('chats');
  if (chats && waiting(chats.getSnapshot())) use(waitOver(chats));
  return null;
}
