import { describe, expect, it } from 'vitest';
import { conversation, entry, person } from '../../../tests/client/chat-fixtures';
import { foldName, NAME_MATCHES_MAX, nameMatches } from './name-matches';

const me = person('me', 'Я');
const anna = person('u2', 'Анна Ёлкина', { username: 'anna' });
const boris = person('u3', 'Борис', { username: 'bob' });
const vera = person('u4', 'Вера', { username: 'verochka' });
const entries = [
  entry(conversation('c1', [me, anna])),
  entry(conversation('g1', [me, anna, boris], { title: 'Поход в горы', isGroup: true })),
];

describe('search by name', () => {
  it('folds case, «ё» and spaces', () => {
    expect(foldName('  Ёлка   Новогодняя ')).toBe('елка новогодняя');
  });

  it('finds chats by title (a direct chat by the peer’s name or username) and friends without a chat', () => {
    expect(nameMatches('поход', entries, [anna, boris, vera], 'me')).toEqual({
      chats: [{ id: 'g1', title: 'Поход в горы' }],
      people: [],
    });
    // Anna has a direct chat: found once, as the chat.
    expect(nameMatches('елкин', entries, [anna, boris, vera], 'me')).toEqual({
      chats: [{ id: 'c1', title: 'Анна Ёлкина' }],
      people: [],
    });
    expect(nameMatches('ANNA', entries, [anna], 'me').chats.map((c) => c.id)).toEqual(['c1']);
    expect(nameMatches('veroch', entries, [anna, boris, vera], 'me').people).toEqual([vera]);
    expect(nameMatches('бор', entries, [anna, boris, vera], 'me').people).toEqual([boris]);
    expect(nameMatches('   ', entries, [anna, boris, vera], 'me')).toEqual({ chats: [], people: [] });
  });

  it('shows at most a few of each', () => {
    const many = Array.from({ length: 12 }, (_, i) => person(`p${i}`, `Павел ${i}`));
    expect(nameMatches('павел', [], many, 'me').people).toHaveLength(NAME_MATCHES_MAX);
  });
});
