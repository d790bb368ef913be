// The guests' views rendered from props: the guest page's lobby and ends, and the members' door in a call.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { GuestDoorPanel } from './GuestDoor';
import { GuestPageContent, invitation } from './GuestPage';
import type { GuestDoorView } from './useGuestDoor';
import type { GuestPageView } from './useGuestPage';

const page = (over: Partial<GuestPageView>): GuestPageView => ({
  info: { title: null, host: 'Анна', expiresAt: '2030-01-01T00:00:00.000Z' },
  encrypted: false,
  callKey: null,
  error: null,
  name: '',
  media: null,
  video: true,
  audio: true,
  busy: false,
  form: false,
  lobby: false,
  call: false,
  ended: false,
  again: false,
  onKnock: vi.fn(),
  onRetry: vi.fn(),
  onCancel: vi.fn(),
  onLeft: vi.fn(),
  onAgain: vi.fn(),
  ...over,
});

const door = (over: Partial<GuestDoorView>): GuestDoorView => ({
  waiting: [],
  linkUrl: null,
  encrypted: false,
  linkExpiresAt: null,
  error: null,
  busy: false,
  onInvite: vi.fn(),
  onAdmit: vi.fn(),
  onDeny: vi.fn(),
  onRemove: vi.fn(),
  onDismissError: vi.fn(),
  ...over,
});

describe('the guest page', () => {
  it('names who invites, and the group when there is one', () => {
    expect(invitation({ title: null, host: 'Анна', expiresAt: '' })).toBe('Анна приглашает вас в звонок');
    expect(invitation({ title: 'Семья', host: 'Анна', expiresAt: '' })).toBe(
      'Анна приглашает вас в звонок группы «Семья»',
    );
  });

  it('waits in the lobby with «Отменить», and says plainly how it ended', async () => {
    const onCancel = vi.fn();
    const { rerender } = render(<GuestPageContent {...page({ lobby: true, onCancel })} />);
    expect(screen.getByRole('status')).toHaveTextContent('Ждём, пока вас впустят');
    await userEvent.click(screen.getByRole('button', { name: 'Отменить' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    rerender(<GuestPageContent {...page({ ended: true, error: 'Вас не впустили в звонок' })} />);
    expect(screen.getByRole('heading', { name: 'Звонок' })).toBeInTheDocument();
    expect(screen.getByTestId('guest-outcome')).toHaveTextContent('Вас не впустили в звонок');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says the call is over and offers to knock again', async () => {
    const onAgain = vi.fn();
    render(<GuestPageContent {...page({ ended: true, again: true, error: 'Звонок завершён', onAgain })} />);
    expect(screen.getByTestId('guest-outcome')).toHaveTextContent('Звонок завершён');
    await userEvent.click(screen.getByRole('button', { name: 'Попросить войти снова' }));
    expect(onAgain).toHaveBeenCalledTimes(1);
  });

  it('offers «Повторить» when the server could not be reached', async () => {
    const onRetry = vi.fn();
    render(<GuestPageContent {...page({ info: null, error: 'Не удалось открыть ссылку.', onRetry })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось открыть ссылку.');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('the door of a call', () => {
  it('invites by link and lets a waiting guest in or turns them away', async () => {
    const view = door({
      linkUrl: 'https://beseda.example/g/abc',
      waiting: [{ id: 'k1', name: 'Анна', knockedAt: '2030-01-01T00:00:00.000Z' }],
    });
    render(<GuestDoorPanel {...view} />);
    await userEvent.click(screen.getByRole('button', { name: 'Пригласить по ссылке' }));
    expect(view.onInvite).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('guest-link')).toHaveValue('https://beseda.example/g/abc');
    expect(screen.getByText('Гость Анна хочет войти')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Впустить' }));
    await userEvent.click(screen.getByRole('button', { name: 'Отклонить' }));
    expect(view.onAdmit).toHaveBeenCalledWith('k1');
    expect(view.onDeny).toHaveBeenCalledWith('k1');
  });

  it('at a secret chat’s call shows the code to compare, and admits no guest whose key the link does not vouch for', async () => {
    const knockedAt = '2030-01-01T00:00:00.000Z';
    const view = door({
      encrypted: true,
      waiting: [
        { id: 'k1', name: 'Анна', knockedAt, check: { verified: true, shortCode: '123 456', problem: null } },
        {
          id: 'k2',
          name: 'Ева',
          knockedAt,
          check: { verified: false, shortCode: null, problem: 'Ключ гостя не подтверждён' },
        },
      ],
    });
    render(<GuestDoorPanel {...view} />);
    expect(screen.getByTestId('guest-door-code')).toHaveTextContent('Код: 123 456');
    expect(screen.getByText('Ключ гостя не подтверждён')).toBeInTheDocument();
    const [first, second] = screen.getAllByRole('button', { name: 'Впустить' });
    expect(first).toBeEnabled();
    expect(second).toBeDisabled();
  });
});
