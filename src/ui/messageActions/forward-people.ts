// Whom «Переслать» offers besides the chats: everyone one may write to who has no direct chat yet — friends, the
// members of one's groups, and the directory's people when the administrator turned it on (docs/behaviour.md §10.19).
import type { ConversationEntry, PublicUser } from '../../contract/entities';

/** Friends first, then co-members, then the directory; each person once, never oneself or a removed account. */
export function forwardPeople(
  me: string,
  entries: readonly ConversationEntry[],
  friends: readonly PublicUser[],
  directory: readonly PublicUser[],
): PublicUser[] {
  const haveChat = new Set<string>([me]);
  for (const { conversation: c } of entries)
    if (!c.isGroup && !c.secret && !c.saved) for (const p of c.participants) haveChat.add(p.user.id);
  const coMembers = entries
    .filter((e) => e.conversation.isGroup)
    .flatMap((e) => e.conversation.participants.map((p) => p.user));
  const seen = new Set(haveChat);
  const people: PublicUser[] = [];
  for (const u of [...friends, ...coMembers, ...directory]) {
    // A deleted account keeps no EBLID; a deactivated one cannot be written to.
    if (seen.has(u.id) || u.eblid === '' || u.deactivated) continue;
    seen.add(u.id);
    people.push(u);
  }
  return people;
}
