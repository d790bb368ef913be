// «Люди» and «Открытые группы» rendered from props: nothing while the directory is off, the search, «Добавить в
// друзья» by @username (not for friends), «Вступить» (busy while joining), «Вы участник», and a failed load's retry.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/entities';
import { DirectorySectionView, type DirectorySectionViewProps, membersLabel } from './DirectorySection';

const person = (id: string, displayName: string): PublicUser => ({
  id,
  username: id,
  displayName,
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
});

const props = (over: Partial<DirectorySectionViewProps> = {}): DirectorySectionViewProps => ({
  shown: true,
  failed: false,
  busy: false,
  q: '',
  users: [person('boris', 'Борис'), person('vera', 'Вера')],
  groups: [
    { id: 'g1', title: 'Клуб', avatarUrl: null, memberCount: 21, member: false },
    { id: 'g2', title: 'Дача', avatarUrl: null, memberCount: 3, member: true },
  ],
  joining: null,
  error: null,
  onSearch: vi.fn(),
  onJoin: vi.fn(),
  onRetry: vi.fn(),
  onAddFriend: vi.fn(),
  known: new Set(['vera']),
  ...over,
});

describe('DirectorySectionView', () => {
  it('shows nothing while the directory is off', () => {
    const { container } = render(<DirectorySectionView {...props({ shown: false })} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('lists people and open groups; searches, asks to be friends by @username and joins', async () => {
    const p = props();
    render(<DirectorySectionView {...p} />);
    expect(screen.getByRole('heading', { name: 'Люди' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск по имени, @нику или ID' }), 'б');
    expect(p.onSearch).toHaveBeenCalledWith('б');
    const people = screen.getByRole('list', { name: 'Люди' });
    expect(within(people).getAllByRole('button', { name: 'Добавить в друзья' })).toHaveLength(1);
    await userEvent.click(within(people).getByRole('button', { name: 'Добавить в друзья' }));
    expect(p.onAddFriend).toHaveBeenCalledWith('@boris');
    const groups = screen.getByRole('list', { name: 'Открытые группы' });
    expect(groups).toHaveTextContent('21 участник');
    expect(groups).toHaveTextContent('3 участника');
    expect(groups).toHaveTextContent('Вы участник');
    await userEvent.click(within(groups).getByRole('button', { name: 'Вступить' }));
    expect(p.onJoin).toHaveBeenCalledWith('g1');
  });

  it('is busy on the group being joined, says when nobody is found, and offers a retry after a failed load', async () => {
    const { rerender } = render(<DirectorySectionView {...props({ joining: 'g1' })} />);
    expect(screen.getByRole('button', { name: 'Вступить' })).toBeDisabled();
    rerender(<DirectorySectionView {...props({ users: [], groups: [] })} />);
    expect(screen.getByText('Никого не нашлось')).toBeInTheDocument();
    expect(screen.getByText('Открытых групп нет')).toBeInTheDocument();
    const p = props({ shown: false, failed: true, error: 'Не удалось загрузить каталог. Попробуйте ещё раз.' });
    rerender(<DirectorySectionView {...p} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить каталог');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(p.onRetry).toHaveBeenCalled();
  });

  it('counts members with the right ending', () => {
    expect([1, 2, 5, 11, 12, 21, 22, 25, 111, 112].map(membersLabel)).toEqual([
      '1 участник',
      '2 участника',
      '5 участников',
      '11 участников',
      '12 участников',
      '21 участник',
      '22 участника',
      '25 участников',
      '111 участников',
      '112 участников',
    ]);
  });
});
