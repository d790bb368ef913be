// A thread's root in the timeline (docs/behaviour.md §10.27): «N ответов» in Russian plural forms with the last
// repliers, and «Ответить в обсуждении» in the menu only where threads are on and never on a reply or an entry.
import { describe, expect, it } from 'vitest';
import { message, person } from '../../../tests/client/chat-fixtures';
import { repliesText } from '../../contract/format';
import { menuItems } from './message-actions';
import { messageRows } from './view-model';

const people = new Map([
  ['me', person('me', 'Я')],
  ['u2', person('u2', 'Анна')],
]);
const options = { me: 'me', conversationId: 'c1', isGroup: true, people, now: new Date('2025-03-01T12:00:00Z') };

describe('thread rows', () => {
  it('says «N ответов» in the right form', () => {
    expect([1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map(repliesText)).toEqual([
      '1 ответ',
      '2 ответа',
      '4 ответа',
      '5 ответов',
      '11 ответов',
      '12 ответов',
      '14 ответов',
      '21 ответ',
      '22 ответа',
      '25 ответов',
      '101 ответ',
      '111 ответов',
    ]);
  });

  it('shows a root’s count and repliers by name; a root without replies shows none', () => {
    const [root, plain] = messageRows(
      [
        message('r1', 'me', 1, { thread: { replyCount: 3, lastReplyAt: null, repliers: ['u2', 'me'] } }),
        message('m2', 'u2', 2),
      ],
      [],
      options,
    );
    expect(root?.thread).toEqual({
      label: '3 ответа',
      repliers: [
        { id: 'u2', displayName: 'Анна', avatarUrl: null },
        { id: 'me', displayName: 'Я', avatarUrl: null },
      ],
    });
    expect(plain?.thread).toBeNull();
  });

  it('offers «Ответить в обсуждении» where threads are on, not on replies', () => {
    const [row, reply] = messageRows(
      [message('m1', 'u2', 1), message('m2', 'u2', 2, { threadRootId: 'm1' })],
      [],
      options,
    );
    const labels = (r: typeof row, threads: boolean) =>
      r ? menuItems(r, { canPin: false, pinned: new Set(), threads }).map((i) => i.label) : [];
    expect(labels(row, true)).toContain('Ответить в обсуждении');
    expect(labels(row, false)).not.toContain('Ответить в обсуждении');
    expect(labels(reply, true)).not.toContain('Ответить в обсуждении');
  });
});
