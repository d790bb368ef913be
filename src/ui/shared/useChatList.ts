// The chats actor as views reach it: the chats page's own hooks get the actor; other features' views get narrow
// hooks (the list's data, opening a chat, the open conversation's actor) and never hold the actor themselves.
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { ConversationEntry } from '../../contract/entities';
import { type ChatsRef, conversationLoaderOf } from '../../machines/chats/chats/chats.protocol';
import { loadedConversationOf } from '../../machines/chats/conversationLoader/conversationLoader.protocol';
import type { ConversationRef } from '../../machines/conversation/conversation/conversation.protocol';
import { useSystemActor } from '../app/RuntimeContext';

const noEntries: ConversationEntry[] = [];

/** The chats actor, for the chats page's own view hooks. */
export const useChatsActor = (): ChatsRef | undefined => useSystemActor('chats');

/** The list, newest first (empty before it is fetched). */
export function useChatEntries(): ConversationEntry[] {
  return useSelector(useChatsActor(), (s) => s?.context.entries ?? noEntries);
}

/** One conversation as the list has it. */
export function useChatEntry(conversationId: string | null): ConversationEntry | undefined {
  return useSelector(useChatsActor(), (s) => s?.context.entries.find((e) => e.conversation.id === conversationId));
}

/** Opens a conversation on the chats page (the address follows). */
export function useOpenChat(): (conversationId: string) => void {
  const chats = useChatsActor();
  return useCallback((conversationId: string) => chats?.send({ type: 'chats.open', conversationId }), [chats]);
}

/** The selected conversation's actor once it runs (the chats page's pane, a call's chat panel). */
export function useOpenConversation(chats = useChatsActor()): ConversationRef | undefined {
  return useSelector(useSelector(chats, conversationLoaderOf), loadedConversationOf);
}
