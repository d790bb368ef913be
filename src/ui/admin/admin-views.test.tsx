import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminUser, BackupStatus } from '../../contract/administration';
import { RegistrationView } from './RegistrationTab';
import { BackupView } from './ServerTab';
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
          passwordSignIn: true,
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
          passwordSignIn: true,
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
          passwordSignIn: true,
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

  it('turns password sign-in off for members', async () => {
    const onSave = vi.fn();
    render(
      <RegistrationView
        settings={{
          registration: 'closed',
          membersCanInvite: false,
          retentionDays: null,
          directory: false,
          guestLinks: true,
          passwordSignIn: true,
          twoFactorRequired: 'nobody',
        }}
        busy={false}
        saved={false}
        error={null}
        onSave={onSave}
        onReload={vi.fn()}
      />,
    );
    const passwords = screen.getByLabelText('Вход по паролю');
    expect(passwords).toBeChecked();
    expect(passwords).toHaveAccessibleDescription(/только через организацию/);
    await userEvent.click(passwords);
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ passwordSignIn: false, guestLinks: true }));
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
    secondFactor: false,
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

describe('«Резервные копии» block', () => {
  const base: BackupStatus = {
    schedule: 'каждый день в 03:30',
    location: 'disk',
    place: '/srv/beseda/data/backups',
    last: {
      startedAt: '2026-11-27T03:30:00.000Z',
      finishedAt: '2026-11-27T03:30:04.000Z',
      status: 'ok',
      bytes: 3 * 1024 * 1024,
      target: '/srv/beseda/data/backups/beseda-backup-2026-11-27T03-30-00Z.tar.gz',
      failure: null,
    },
    lastOkAt: '2026-11-27T03:30:04.000Z',
    warning: null,
  };
  const fact = (name: string) => screen.getByText(name).nextElementSibling?.textContent;

  it('shows the last backup: time, result, size and where it went, without a warning', () => {
    render(<BackupView backup={base} />);
    expect(fact('Расписание')).toBe('каждый день в 03:30');
    expect(fact('Куда')).toBe('Диск: /srv/beseda/data/backups');
    expect(fact('Результат')).toBe('Успешно');
    expect(fact('Размер')).toMatch(/^3(,0)? МБ$/);
    expect(fact('Файл')).toBe(base.last?.target);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns of a failed backup with its reason and the last one that worked', () => {
    const failure = 'Не удалось сделать резервную копию: ENOSPC: no space left on device';
    render(
      <BackupView
        backup={{
          ...base,
          location: 's3',
          place: 's3://beseda/backups/',
          last: { ...base.last, status: 'failed', bytes: null, failure } as BackupStatus['last'],
          lastOkAt: '2026-11-26T03:30:04.000Z',
          warning: `Последняя резервная копия не удалась (2026-11-27 03:30:00 UTC): ${failure}`,
        }}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(/^Последняя резервная копия не удалась/);
    expect(fact('Результат')).toBe('Не удалась');
    expect(fact('Причина')).toBe(failure);
    expect(fact('Куда')).toBe('Бакет S3: s3://beseda/backups/');
    expect(screen.queryByText('Размер')).toBeNull();
    expect(screen.getByText('Последняя удачная')).toBeInTheDocument();
  });

  it('says when there is no schedule and no backup yet', () => {
    render(<BackupView backup={{ ...base, schedule: null, last: null, lastOkAt: null }} />);
    expect(fact('Расписание')).toBe('Выключено (BACKUP_SCHEDULE=off)');
    expect(fact('Последняя копия')).toBe('Ещё не было');
  });
});
