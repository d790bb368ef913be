// The chats feature's actors provided from the real services: the list, its footer and the address (the list's
// menu loads later: chats-menu.ts). The open conversation's actors load later (src/services/conversation/conversation.effects.ts,
// through the registry).
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import { noAnswer, readerSocket, withList } from '../app/rest-answers';
import { copyText } from '../app/clipboard';
import { type ChatsEffects, chatsMachine, type ListAnswer } from '../../machines/chats/chats/chats.machine';
import { onChats, watchChatList } from '../../machines/chats/chats/chats.protocol';
import { isMutedEntry } from '../../machines/chats/chats/conversation-list';
import { type ChatsFooterEffects, chatsFooterMachine } from '../../machines/chats/chatsFooter/chatsFooter.machine';
import {
  type NavigationEffects,
  navigationMachine,
  pageTitle,
  type RouterCommand,
} from '../../machines/chats/navigation/navigation.machine';
import type { Services } from '../app/services';

export function wireChats(s: Services) {
  return chatsMachine.provide({
    actors: {
      // The list from the server is kept for reading offline; with no answer at all, the kept one is shown.
      fetchConversations: fromPromise(async (): Promise<ListAnswer> => {
        const userId = s.currentUserId();
        try {
          const answer = withList(await s.api.call('conversations'), 'conversations');
          if (userId) void s.offline.saveList(userId, answer.conversations).catch(() => undefined);
          return answer;
        } catch (err) {
          const saved = userId && noAnswer(err) ? await s.offline.loadList(userId).catch(() => null) : null;
          if (!saved) throw err;
          return { conversations: saved, saved: true };
        }
      }),
      markRead: fromPromise<unknown, BodyOf<'markRead'>>(({ input }) =>
        s.api.call('markRead', { body: { ...input, ...readerSocket(s.socketId()) } }),
      ),
    } satisfies ChatsEffects,
  });
}

/** The chats footer: the clipboard for the own EBLID (its dialogs' actors are provided by the registry). */
export function wireChatsFooter() {
  return chatsFooterMachine.provide({
    actors: {
      copyText,
      // Its loadOwned (the dialogs' code) is the composition root's (src/machines/app/wiring.ts).
    } satisfies Omit<ChatsFooterEffects, 'loadOwned'>,
  });
}

/** The navigation actor with the app's router and the chats actor's selections. */
export function wireNavigation(s: Services) {
  return navigationMachine.provide({
    actors: {
      router: fromCallback<RouterCommand>(({ sendBack, receive }) => {
        const report = (path: string) => sendBack({ type: 'nav.location', path });
        const unsubscribe = s.router.subscribe(report);
        report(s.router.path());
        receive((command) => {
          if (command.type === 'router.back') s.router.back();
          else s.router.go(command.path, { replace: command.replace });
        });
        return unsubscribe;
      }),
      selections: fromCallback(({ system, sendBack }) => {
        return onChats(system, 'chats.selected', (e) =>
          sendBack({ type: 'nav.selected', conversationId: e.conversationId }),
        );
      }),
      pageTitle: fromCallback(({ system }) => {
        if (typeof document === 'undefined') return;
        let shown = '';
        return watchChatList(system, ({ entries }) => {
          const now = Date.now();
          // Muted chats are not news (as their badge is grey).
          const unread = entries.reduce((n, e) => (isMutedEntry(e, now) ? n : n + e.unreadCount), 0);
          const title = pageTitle(unread);
          if (title !== shown) document.title = shown = title;
        });
      }),
    } satisfies NavigationEffects,
  });
}
