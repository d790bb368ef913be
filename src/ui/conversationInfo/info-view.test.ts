import { describe, expect, it } from 'vitest';
import { conversation, entry, person } from '../../../tests/client/chat-fixtures';
import { membersText } from '../../contract/format';
import { infoView, memberActions } from './info-view';

describe('«Информация» rules', () => {
  it('counts members in Russian plurals', () => {
    expect([1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map(membersText)).toEqual([
      '1 участник',
      '2 участника',
      '3 участника',
      '4 участника',
      '5 участников',
      '11 участников',
      '12 участников',
      '14 участников',
      '21 участник',
      '22 участника',
      '25 участников',
      '101 участник',
      '111 участников',
    ]);
  });

  it('offers the owner every action on others, an admin only removing plain members, a member nothing', () => {
    expect(memberActions('OWNER', 'MEMBER', 'u').map((a) => a.label)).toEqual([
      'Сделать администратором',
      'Передать права владельца',
      'Удалить из группы',
    ]);
    expect(memberActions('OWNER', 'ADMIN', 'u').map((a) => a.label)).toEqual([
      'Разжаловать',
      'Передать права владельца',
      'Удалить из группы',
    ]);
    expect(memberActions('ADMIN', 'MEMBER', 'u').map((a) => a.label)).toEqual(['Удалить из группы']);
    expect(memberActions('ADMIN', 'ADMIN', 'u')).toEqual([]);
    expect(memberActions('ADMIN', 'OWNER', 'u')).toEqual([]);
    expect(memberActions('MEMBER', 'MEMBER', 'u')).toEqual([]);
  });

  it('shows a group with roles and a direct chat as the other person’s profile', () => {
    const me = person('me', 'Я');
    const anna = person('u2', 'Анна', { status: 'ONLINE', bio: 'Люблю дачу', eblid: '1234' });
    const boris = person('u3', 'Борис');
    const g = conversation('g1', [me, anna, boris], { title: 'Дача', isGroup: true });
    g.participants[0].role = 'OWNER';
    g.participants[1].role = 'ADMIN';
    const view = infoView(entry(g), 'me', Date.now());
    expect(view).toMatchObject({ isGroup: true, title: 'Дача', subtitle: '3 участника', canManage: true, peer: null });
    expect(view.members.map((m) => [m.name, m.role, m.actions.length])).toEqual([
      ['Я', 'владелец', 0],
      ['Анна', 'администратор', 3],
      ['Борис', null, 3],
    ]);
    const direct = infoView(entry(conversation('d1', [me, anna])), 'me', Date.now());
    expect(direct).toMatchObject({
      isGroup: false,
      title: 'Анна',
      canManage: false,
      peer: { name: 'Анна', eblid: '1234', bio: 'Люблю дачу', presence: 'ОНЛАЙН', online: true, customStatus: '' },
    });
  });

  it('shows a status of one’s own apart from presence, for the peer and for each group member', () => {
    const me = person('me', 'Я');
    const anna = person('u2', 'Анна', {
      status: 'ONLINE',
      customStatus: { emoji: '🤒', text: 'Болею', expiresAt: '2026-03-02T12:00:00.000Z' },
    });
    const boris = person('u3', 'Борис');
    const group = infoView(entry(conversation('g1', [me, anna, boris], { isGroup: true })), 'me', Date.now());
    expect(group.members.map((m) => [m.name, m.customStatus, m.presence])).toEqual([
      ['Я', '', expect.any(String)],
      ['Анна', '🤒 Болею', 'ОНЛАЙН'],
      ['Борис', '', expect.any(String)],
    ]);
    const direct = infoView(entry(conversation('d1', [me, anna])), 'me', Date.now());
    expect(direct.peer).toMatchObject({ customStatus: '🤒 Болею', presence: 'ОНЛАЙН' });
  });
});
