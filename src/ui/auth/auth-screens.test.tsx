import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestFailure } from '../../contract/failure';
import { deferred, renderApp, user } from '../../../tests/client/render-app';

const location = () => screen.getByTestId('location').textContent;
const serverError = (message?: string) => {
  return new RequestFailure(409, message ?? null);
};

afterEach(() => localStorage.clear());

describe('auth layout', () => {
  it('shows the brand panel and two tabs; "Войти" is active only on /auth exactly', async () => {
    renderApp('/auth');
    expect(screen.getByRole('heading', { name: 'Беседа' })).toBeInTheDocument();
    expect(screen.getByText('Чаты, звонки и друзья — на вашем сервере')).toBeInTheDocument();
    const signInTab = screen.getByRole('link', { name: 'Войти' });
    const registerTab = screen.getByRole('link', { name: 'Регистрация' });
    expect(signInTab).toHaveAttribute('aria-current', 'page');
    expect(registerTab).not.toHaveAttribute('aria-current');
    await userEvent.click(registerTab);
    expect(location()).toBe('/auth/register');
    expect(screen.getByRole('link', { name: 'Войти' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Регистрация' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('sign-in screen', () => {
  it('asks «Код из приложения» after a right password, sends it with «Запомнить», shows a refusal, goes back', async () => {
    const sent: unknown[] = [];
    renderApp('/auth', {
      login: async () => ({ secondFactor: { challenge: 'c1', totp: true, passkey: false } }),
      loginSecondFactor: async (input) => {
        sent.push(input);
        if (sent.length === 1) throw new RequestFailure(400, 'Неверный код');
        return { user, accessToken: 'a1', refreshToken: 'r1' };
      },
    });
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    const step = await screen.findByRole('form', { name: 'Двухэтапная проверка' });
    await userEvent.type(within(step).getByLabelText('Код из приложения'), '000000');
    await userEvent.click(within(step).getByRole('button', { name: 'Подтвердить' }));
    expect(await within(step).findByRole('alert')).toHaveTextContent('Неверный код');
    await userEvent.clear(within(step).getByLabelText('Код из приложения'));
    await userEvent.type(within(step).getByLabelText('Код из приложения'), '123456');
    await userEvent.click(within(step).getByLabelText('Запомнить этот браузер на 30 дней'));
    await userEvent.click(within(step).getByRole('button', { name: 'Подтвердить' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(sent).toEqual([
      { challenge: 'c1', code: '000000', remember: false },
      { challenge: 'c1', code: '123456', remember: true },
    ]);
  });

  it('an account with passkeys only is offered «Использовать ключ доступа», and no code field', async () => {
    renderApp('/auth', { login: async () => ({ secondFactor: { challenge: 'c1', totp: false, passkey: true } }) });
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    const step = await screen.findByRole('form', { name: 'Двухэтапная проверка' });
    expect(within(step).getByRole('button', { name: 'Использовать ключ доступа' })).toBeEnabled();
    expect(within(step).queryByLabelText('Код из приложения')).toBeNull();
    expect(within(step).queryByRole('button', { name: 'Подтвердить' })).toBeNull();
  });

  it('«Назад» from the second step shows the password form again', async () => {
    renderApp('/auth', { login: async () => ({ secondFactor: { challenge: 'c1', totp: true, passkey: false } }) });
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Назад' }));
    expect(screen.getByRole('form', { name: 'Вход' })).toBeInTheDocument();
  });

  it('requires both fields, shows "Входим…" disabled while the request runs, then "Неверные данные" on failure', async () => {
    const call = deferred<unknown>();
    let sent: unknown;
    renderApp('/auth', {
      login: (input) => {
        sent = input;
        return call.promise;
      },
    });
    expect(screen.getByLabelText('Никнейм')).toBeRequired();
    expect(screen.getByLabelText('Пароль')).toBeRequired();
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'wrong password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(sent).toEqual({ username: 'anna', password: 'wrong password' });
    expect(screen.getByRole('button', { name: 'Входим…' })).toBeDisabled();
    call.reject(serverError('Неверный никнейм или пароль'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Неверные данные$/);
    expect(screen.getByRole('button', { name: 'Войти' })).toBeEnabled();
    expect(location()).toBe('/auth');
  });

  it('goes to / after sign-in, replacing the sign-in entry', async () => {
    renderApp('/auth', { login: async () => ({ user, accessToken: 'a1', refreshToken: 'r1' }) });
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await waitFor(() => expect(location()).toBe('/'));
    // The app bar names the user (the chats page's own-profile tile does too).
    expect(within(screen.getByRole('banner')).getByText('Анна Петрова')).toBeInTheDocument();
  });
});

describe('registration screen', () => {
  const fill = async () => {
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Отображаемое имя'), 'Анна');
    await userEvent.type(screen.getByLabelText('Пароль'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Создать аккаунт' }));
  };

  it('has the browser-level minimum lengths 3 / 2 / 8', () => {
    renderApp('/auth/register');
    expect(screen.getByLabelText('Никнейм')).toHaveAttribute('minlength', '3');
    expect(screen.getByLabelText('Отображаемое имя')).toHaveAttribute('minlength', '2');
    expect(screen.getByLabelText('Пароль')).toHaveAttribute('minlength', '8');
    for (const label of ['Никнейм', 'Отображаемое имя', 'Пароль']) expect(screen.getByLabelText(label)).toBeRequired();
  });

  it('shows "Создаем…" while running and the server message on failure', async () => {
    const call = deferred<unknown>();
    renderApp('/auth/register', { register: () => call.promise });
    await fill();
    expect(screen.getByRole('button', { name: 'Создаем…' })).toBeDisabled();
    call.reject(serverError('Этот никнейм уже занят'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Этот никнейм уже занят$/);
  });

  it('falls back to "Ошибка регистрации" without a server message', async () => {
    renderApp('/auth/register', { register: () => Promise.reject(new TypeError('Failed to fetch')) });
    await fill();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Ошибка регистрации$/);
  });

  it('returns to /auth after success with the new name filled in', async () => {
    renderApp('/auth/register', { register: async () => ({ user }) });
    await fill();
    await waitFor(() => expect(location()).toBe('/auth'));
    expect(screen.getByRole('status')).toHaveTextContent('Аккаунт создан');
    expect(screen.getByLabelText('Никнейм')).toHaveValue('anna');
  });
});
