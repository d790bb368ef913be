// The member card rendered from props (docs/behaviour.md §10.26): what it offers for each relation, the refusal in the
// server's words, and its buttons.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/entities';
import { MemberCardView } from './MemberCard';
import type { MemberCardView as CardView } from './useMemberCard';

const vera: PublicUser = {
  id: 'u3',
  username: 'vera',
  displayName: 'Вера',
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
};

const props = (extra: Partial<CardView> = {}): CardView => ({
  user: vera,
  name: 'Вера',
  username: 'vera',
  presence: 'ОНЛАЙН',
  customStatus: '',
  online: true,
  relation: 'none',
  loading: false,
  busy: false,
  error: null,
  onWrite: vi.fn(),
  onBefriend: vi.fn(),
  onDismiss: vi.fn(),
  onClose: vi.fn(),
  ...extra,
});

describe('member card', () => {
  it('shows the person with «Написать» and «Добавить в друзья»; each button asks its actor', async () => {
    const p = props();
    render(<MemberCardView {...p} />);
    const dialog = screen.getByRole('dialog', { name: 'Участник' });
    expect(dialog).toHaveTextContent('Вера');
    expect(dialog).toHaveTextContent('@vera');
    expect(dialog).toHaveTextContent('ОНЛАЙН');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Написать' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Добавить в друзья' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть окно' }));
    expect(p.onWrite).toHaveBeenCalledOnce();
    expect(p.onBefriend).toHaveBeenCalledOnce();
    expect(p.onClose).toHaveBeenCalledOnce();
  });

  it('shows their status of their own apart from presence, and nothing when there is none', () => {
    const { unmount } = render(<MemberCardView {...props({ customStatus: '🌴 В отпуске' })} />);
    expect(screen.getByTestId('member-card-custom-status')).toHaveTextContent('🌴 В отпуске');
    expect(screen.getByText('ОНЛАЙН')).not.toHaveTextContent('В отпуске');
    unmount();
    render(<MemberCardView {...props()} />);
    expect(screen.queryByTestId('member-card-custom-status')).toBeNull();
  });

  it('offers no friendship to a friend, says a request waits, and not before the relation is known', () => {
    const view = render(<MemberCardView {...props({ relation: 'friend' })} />);
    expect(screen.queryByRole('button', { name: 'Добавить в друзья' })).toBeNull();
    view.rerender(<MemberCardView {...props({ relation: 'outgoing' })} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Заявка отправлена');
    view.rerender(<MemberCardView {...props({ relation: 'incoming' })} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Заявка в друзья ждёт вашего ответа');
    view.rerender(<MemberCardView {...props({ relation: null })} />);
    expect(screen.queryByRole('button', { name: 'Добавить в друзья' })).toBeNull();
  });

  it('shows the refusal in the server words and is locked while a request is under way', () => {
    render(<MemberCardView {...props({ error: 'Пользователь принимает сообщения только от друзей', busy: true })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Пользователь принимает сообщения только от друзей');
    expect(screen.getByRole('button', { name: 'Написать' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Добавить в друзья' })).toBeDisabled();
  });
});
