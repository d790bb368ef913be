// The list's search by name, in the browser (docs/behaviour.md §10.17): chats whose title matches and friends
// whose name or username does, shown before the messages found, as Telegram does. Pure.
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import { conversationTitle, directPeer, displayName } from '../../contract/format';

/** How many chats and how many people a search by name shows. */
export const NAME_MATCHES_MAX = 5;

/** Lower case, «ё» as «е», spaces collapsed: «Ёлка» finds «елка». */
export const foldName = (s: string) => s.toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

export interface NameMatches {
  chats: { id: string; title: string }[];
  /** Friends without a direct chat among the chats found (those are found as chats). */
  people: PublicUser[];
}

export function nameMatches(
  query: string,
  entries: ConversationEntry[],
  friends: PublicUser[],
  me: string | null,
): NameMatches {
  const q = foldName(query);
  if (!q) return { chats: [], people: [] };
  const chats: NameMatches['chats'] = [];
  const peersShown = new Set<string>();
  for (const e of entries) {
    const title = conversationTitle(e.conversation, me);
    const peer = directPeer(e.conversation, me);
    const hit = foldName(title).includes(q) || (peer !== null && foldName(peer.username).includes(q));
    if (!hit) continue;
    if (chats.length < NAME_MATCHES_MAX) chats.push({ id: e.conversation.id, title });
    if (peer) peersShown.add(peer.id);
  }
  const people = friends
    .filter((f) => !peersShown.has(f.id) && (foldName(displayName(f)).includes(q) || foldName(f.username).includes(q)))
    .slice(0, NAME_MATCHES_MAX);
  return { chats, people };
}
