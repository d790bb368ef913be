// The contacts list as pure functions: kept sorted by the friend's display name (as the server sorts it),
// one entry per contact id, and the views' filters (docs/behaviour.md §2: Друзья / Входящие / Исходящие / Все).
import type { Contact, PresenceStatus, PublicUser } from '../../../contract/entities';

export type ContactsFilter = 'accepted' | 'incoming' | 'outgoing' | 'all';

// One collator, made on first use: localeCompare with a locale builds a new one for every comparison, which on a
// phone made sorting a dozen contacts cost tens of milliseconds of the first paint.
let collator: Intl.Collator | null = null;
const byName = (a: Contact, b: Contact) => {
  collator ??= new Intl.Collator('ru');
  return collator.compare(a.friend.displayName, b.friend.displayName);
};

export const sortContacts = (list: readonly Contact[]) => [...list].sort(byName);

/** Adds the contact, or replaces the one with its id (a request that became a friendship keeps its id). */
export function upsertContact(list: readonly Contact[], contact: Contact): Contact[] {
  const rest = list.filter((c) => c.id !== contact.id);
  return sortContacts([...rest, contact]);
}

export const removeContact = (list: readonly Contact[], contactId: string): Contact[] =>
  list.filter((c) => c.id !== contactId);

/** Changes the friend's public fields wherever they appear (profile or presence updates). */
export function withFriend(list: readonly Contact[], userId: string, change: (u: PublicUser) => PublicUser): Contact[] {
  if (!list.some((c) => c.friend.id === userId)) return list as Contact[];
  return sortContacts(list.map((c) => (c.friend.id === userId ? { ...c, friend: change(c.friend) } : c)));
}

/** A presence change as the chats list applies it: last seen is now on ONLINE and OFFLINE (docs/behaviour.md §4). */
export const presenceOf =
  (status: PresenceStatus, lastSeenAt: string | null, now: string) =>
  (u: PublicUser): PublicUser => ({
    ...u,
    status,
    lastSeenAt: status === 'ONLINE' || status === 'OFFLINE' ? (lastSeenAt ?? now) : u.lastSeenAt,
  });

export function filterContacts(list: readonly Contact[], filter: ContactsFilter): Contact[] {
  switch (filter) {
    case 'accepted':
      return list.filter((c) => c.status === 'ACCEPTED');
    case 'incoming':
      return list.filter((c) => c.status === 'PENDING' && c.direction === 'incoming');
    case 'outgoing':
      return list.filter((c) => c.status === 'PENDING' && c.direction === 'outgoing');
    default:
      return [...list];
  }
}

/** The chats footer's 'Контакты' subtitle (docs/behaviour.md §2). */
export function contactsTileSubtitle(list: readonly Contact[]): string {
  if (filterContacts(list, 'incoming').length > 0) return 'Новый запрос в друзья';
  if (filterContacts(list, 'accepted').length > 0) return 'Список контактов';
  return 'Добавить контакт';
}
