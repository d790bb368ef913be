import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '../../contract/administration';
import { RegistrationView } from './RegistrationTab';
import { UsersView } from './UsersTab';

describe('«Регистрация» view', () => {
  it('renders the settings', () => {
    render(
      <RegistrationView
        settings={{
          registration: 'invites',
          membersCanInvite: false,
          retentionDays: null,
          directory: false,
          guestLinks: true,
          twoFactorRequired: 'nobody',
        }}
        busy={false}
        saved={false}
        error={null}
        onSave={vi.fn()}
        onReload={vi.fn()}
      />,
    );
    expect(screen.getByRole('radio', { name: /По приглашениям/ })).toBeChecked();
  });

  it('keeps its controls waiting until the settings are here, so no choice is made on the defaults', () => {
    const props = { busy: true, saved: false, error: null, onSave: vi.fn(), onReload: vi.fn() };
    const { rerender } = render(<RegistrationView settings={null} {...props} />);
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
    expect(screen.getByLabelText('Участники могут приглашать')).toBeDisabled();
    expect(screen.getByLabelText('Каталог участников')).toBeDisabled();
    expect(screen.getByLabelText('Гостевые ссылки на звонки')).toBeDisabled();
    expect(screen.getByLabelText('Хранить сообщения, дней')).toBeDisabled();
    rerender(
      <RegistrationView
        settings={{
          registration: 'closed',
          membersCanInvite: true,
          retentionDays: 30,
          directory: false,
          guestLinks: true,
          twoFactorRequired: 'nobody',
        }}
        {...props}
        busy={false}
      />,
    );
    expect(screen.getByRole('radio', { name: /По приглашениям/ })).toBeEnabled();
    expect(screen.getByRole('radio', { name: /Закрыта/ })).toBeChecked();
    expect(screen.getByLabelText('Участники могут приглашать')).toBeChecked();
  });

  it('turns guest links to calls off with the other settings', async () => {
    const onSave = vi.fn();
    render(
      <RegistrationView
        settings={{
          registration: 'open',
          membersCanInvite: false,
          retentionDays: null,
          directory: false,
          guestLinks: true,
          twoFactorRequired: 'nobody',
        }}
        busy={false}
        saved={false}
        error={null}
        onSave={onSave}
        onReload={vi.fn()}
      />,
    );
    const guests = screen.getByLabelText('Гостевые ссылки на звонки');
    expect(guests).toBeChecked();
    expect(guests).toHaveAccessibleDescription(/без аккаунта/);
    await userEvent.click(guests);
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ guestLinks: false, directory: false }));
  });
});

describe('«Пользователи» view', () => {
  const person = (id: string, displayName: string, role: AdminUser['role']): AdminUser => ({
    id,
    username: id,
    displayName,
    eblid: '1234',
    avatarUrl: null,
    role,
    state: 'active',
    createdAt: '2026-01-01T10:00:00.000Z',
    lastSeenAt: null,
    sessions: 1,
  });

  it('never offers «Отключить» on the administrator’s own account', () => {
    const act = vi.fn();
    render(
      <UsersView
        users={[person('me', 'Администратор', 'admin'), person('anna', 'Анна', 'member')]}
        ownId="me"
        query=""
        busy={false}
        hasMore={false}
        error={null}
        confirm={null}
        resetLink={null}
        copied={false}
        onSearch={vi.fn()}
        onMore={vi.fn()}
        onAct={act}
        onConfirm={vi.fn()}
        onCancel={vi.fn()}
        onResetLink={vi.fn()}
        onCopyLink={vi.fn()}
        onCloseLink={vi.fn()}
      />,
    );
    const rows = screen.getAllByTestId('admin-user');
    expect(within(rows[0] as HTMLElement).queryByRole('button', { name: 'Отключить' })).toBeNull();
    expect(within(rows[1] as HTMLElement).getByRole('button', { name: 'Отключить' })).toBeEnabled();
    expect(screen.getAllByRole('button', { name: 'Отключить' })).toHaveLength(1);
  });
});
