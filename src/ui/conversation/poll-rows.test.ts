// A poll in the timeline (docs/behaviour.md §10.33 Polls): its row carries the poll (the question is the card's, not
// the bubble's text), the voters' names («Вы» for oneself), who may close it; the menu offers no edit or forward.
import { describe, expect, it } from 'vitest';
import { message, person } from '../../../tests/client/chat-fixtures';
import type { PollInfo } from '../../contract/entities';
import { menuItems } from './message-actions';
import { messageRows } from './view-model';

const people = new Map([
  ['me', person('me', 'Я')],
  ['u2', person('u2', 'Анна')],
]);
const options = { me: 'me', conversationId: 'c1', isGroup: true, people, now: new Date('2025-03-01T12:00:00Z') };
const poll: PollInfo = {
  question: 'Куда?',
  options: [
    { id: '0', text: 'Кино', votes: 2, voters: ['u2', 'me'] },
    { id: '1', text: 'Театр', votes: 0, voters: [] },
  ],
  multiple: false,
  anonymous: false,
  quiz: false,
  closed: false,
  voterCount: 2,
  version: 2,
  mine: ['0'],
};

describe('poll rows', () => {
  it('carry the poll, the names and who may close; no edit or forward', () => {
    const [mine, theirs] = messageRows(
      [
        message('m1', 'me', 1, { type: 'POLL', content: 'Куда?', poll }),
        message('m2', 'u2', 2, { type: 'POLL', content: 'Куда?', poll }),
      ],
      [],
      options,
    );
    expect(mine?.text).toBe('');
    expect(mine?.editable).toBe(false);
    expect(mine?.poll?.names).toEqual({ u2: 'Анна', me: 'Вы' });
    expect(mine?.poll?.canClose).toBe(true);
    expect(theirs?.poll?.canClose).toBe(false);
    const [asAdmin] = messageRows([message('m2', 'u2', 2, { type: 'POLL', poll })], [], { ...options, admin: true });
    expect(asAdmin?.poll?.canClose).toBe(true);
    const labels = mine ? menuItems(mine, { canPin: false, pinned: new Set(), threads: true }).map((i) => i.label) : [];
    expect(labels).not.toContain('Переслать');
    expect(labels).not.toContain('Изменить');
  });
});
