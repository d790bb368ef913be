// The selected conversation's pane while its machines are on their way (its first opening, before their chunk is
// here): the render suspends, as it does for a view whose chunk is loading, so the page keeps what it showed until
// the conversation can be drawn (no «Выберите чат» in between).
import { use } from 'react';
import { type ChatsRef, conversationLoaderOf } from '../../machines/chats/chats/chats.protocol';
import { LOADER_TAGS, loadedConversationOf } from '../../machines/chats/conversationLoader/conversationLoader.protocol';
import { useChatsActor } from '../shared/useChatList';

/** Selected, and its actor (the loader's child) neither running nor given up on. */
function waiting(chats: ChatsRef): boolean {
  const loader = conversationLoaderOf(chats.getSnapshot())?.getSnapshot();
  return (
    chats.getSnapshot().context.selectedId !== null &&
    !loadedConversationOf(loader) &&
    !loader?.hasTag(LOADER_TAGS.conversationFailed)
  );
}

/** One promise per chats actor while it waits (React needs the same one on every render that suspends). */
const waits = new WeakMap<ChatsRef, Promise<void>>();

function waitOver(chats: ChatsRef): Promise<void> {
  let wait = waits.get(chats);
  if (!wait) {
    wait = new Promise<void>((resolve) => {
      // The selection is the chats actor's, the conversation's actor its loader's: either may end the wait.
      const check = () => {
        if (waiting(chats)) return;
        for (const sub of subs) sub?.unsubscribe();
        waits.delete(chats);
        resolve();
      };
      const subs = [chats.subscribe(check), conversationLoaderOf(chats.getSnapshot())?.subscribe(check)];
    });
    waits.set(chats, wait);
  }
  return wait;
}

export function ConversationWait() {
  const chats = useChatsActor();
  if (chats && waiting(chats)) use(waitOver(chats));
  return null;
}
