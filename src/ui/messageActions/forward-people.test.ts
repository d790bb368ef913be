import { describe, expect, it } from 'vitest';
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import { forwardPeople } from './forward-people';

const user = (id: string, extra: Partial<PublicUser> = {}): PublicUser => ({
  id,
  username: id,
  displayName: id.toUpperCase(),
  avatarUrl: null,
  status: 'OFFLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
  ...extra,
});

const entry = (id: string, members: PublicUser[], flags: { isGroup?: boolean; secret?: boolean; saved?: boolean }) =>
  ({
    conversation: {
      id,
      title: null,
      isGroup: flags.isGroup ?? false,
      avatarUrl: null,
      participants: members.map((u) => ({ user: u, role: 'MEMBER' })),
      messages: [],
      ...(flags.secret ? { secret: true } : {}),
      ...(flags.saved ? { saved: true } : {}),
    },
  }) as unknown as ConversationEntry;

describe('forwardPeople', () => {
  const me = user('me');
  it('friends, then co-members, then the directory, each once; never oneself or whom one has a chat with', () => {
    const entries = [
      entry('saved-me', [me], { saved: true }),
      entry('d1', [me, user('anna')], {}),
      entry('s1', [me, user('boris')], { secret: true }),
      entry('g1', [me, user('anna'), user('vera'), user('gleb')], { isGroup: true }),
    ];
    const people = forwardPeople('me', entries, [user('boris'), user('anna')], [user('gleb'), user('dina')]);
    // Борис has only a secret chat: a plain one is still to be made.
    expect(people.map((u) => u.id)).toEqual(['boris', 'vera', 'gleb', 'dina']);
  });

  it('leaves out deleted and deactivated accounts', () => {
    const people = forwardPeople('me', [], [user('gone', { eblid: '' }), user('off', { deactivated: true })], []);
    expect(people).toEqual([]);
  });
});
