// The list's search by name: what matches the query among the chats and the friends, and opening either.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import { useSystemActor } from '../app/RuntimeContext';
import { useOpenChat } from '../shared/useChatList';
import { type NameMatches, nameMatches } from './name-matches';

const noFriends: PublicUser[] = [];

export function useNameSearch(query: string, entries: ConversationEntry[], me: string | null) {
  const contacts = useSystemActor('contacts');
  const openChat = useOpenChat();
  const friends = useSelector(
    contacts,
    (s) => s?.context.contacts.filter((c) => c.status === 'ACCEPTED').map((c) => c.friend) ?? noFriends,
    (a, b) => a.length === b.length && a.every((f, i) => f === b[i]),
  );
  const matches: NameMatches = useMemo(() => nameMatches(query, entries, friends, me), [query, entries, friends, me]);
  return {
    ...matches,
    openChat,
    openPerson: (userId: string) => contacts?.send({ type: 'contacts.openChat', userId }),
  };
}
