// The chats list's menu provided from the real services. A module of its own: it loads when the list is first shown
// (src/machines/app/registry.ts), not with the first bundle.
import { fromPromise } from 'xstate';
import { type ChatActionsEffects, chatActionsMachine } from '../../machines/chats/chatActions/chatActions.machine';
import type { ChatAction } from '../../machines/chats/chatActions/chatActions.protocol';
import type { Services } from '../app/services';

/** The list menu's actions: one request each. */
export const wireChatActions = (s: Services) =>
  chatActionsMachine.provide({
    actors: {
      runChatAction: fromPromise<unknown, ChatAction>(({ input }) => {
        if (input.kind === 'clear')
          return s.api.call('clearHistory', { body: { conversationId: input.conversationId } });
        if (input.kind === 'hide')
          return s.api.call('hideConversation', { body: { conversationId: input.conversationId } });
        return s.api.call('chatSettings', { params: { id: input.conversationId }, body: input.change });
      }),
    } satisfies ChatActionsEffects,
  });
