import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, storedSession, user } from '../../../tests/client/render-app';

const location = () => screen.getByTestId('location').textContent;
afterEach(() => localStorage.clear());
// A lazy page's first load transforms its modules: seconds on a busy machine, not vitest's default second.
const LAZY = { timeout: 15_000 };

describe('route guards', () => {
  it.each(['/', '/contacts', '/calls', '/settings'])('signed out, %s leads to the sign-in screen', (path) => {
    renderApp(path);
    expect(location()).toBe('/auth');
    expect(screen.getByRole('button', { name: 'Войти' })).toBeInTheDocument();
  });

  it('returns to the remembered origin after sign-in, also via the registration tab', async () => {
    renderApp('/contacts', { login: async () => ({ user, accessToken: 'a1', refreshToken: 'r1' }) });
    await userEvent.click(screen.getByRole('link', { name: 'Регистрация' }));
    await userEvent.click(screen.getByRole('link', { name: 'Войти' }));
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await waitFor(() => expect(location()).toBe('/contacts'));
    expect(await screen.findByRole('heading', { name: 'Контакты' }, LAZY)).toBeInTheDocument();
  }, 20_000);

  it.each(['/auth', '/auth/register'])('signed in, %s leads to /', (path) => {
    renderApp(path, { stored: storedSession });
    expect(location()).toBe('/');
  });

  it('an unknown address leads to /', () => {
    renderApp('/nowhere', { stored: storedSession });
    expect(location()).toBe('/');
  });

  it('the shared layout navigates between the sections, shows the ping latency, and signs out to /auth', async () => {
    renderApp('/', { stored: storedSession });
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    expect(nav).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Контакты' }));
    await waitFor(() => expect(location()).toBe('/contacts'), LAZY); // pages other than chats load lazily
    await userEvent.click(screen.getByRole('link', { name: 'Звонки' }));
    await waitFor(() => expect(location()).toBe('/calls'), LAZY); // pages other than chats load lazily
    await userEvent.click(screen.getByRole('link', { name: 'Настройки' }));
    await waitFor(() => expect(location()).toBe('/settings'), LAZY); // pages other than chats load lazily
    await userEvent.click(screen.getByRole('link', { name: 'Чаты' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(await screen.findByText('7 мс')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Выйти' }));
    // It asks first; «Отмена» keeps the session.
    const ask = await screen.findByRole('alertdialog', { name: 'Выйти из аккаунта?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Отмена' }));
    expect(location()).toBe('/');
    await userEvent.click(screen.getByRole('button', { name: 'Выйти' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Выйти из аккаунта?' })).getByRole('button', {
        name: 'Выйти',
      }),
    );
    await waitFor(() => expect(location()).toBe('/auth'));
    expect(localStorage.getItem('beseda.session')).toBeNull();
    // Four pages and the announcer load lazily here, each a cold transform in a busy run: bounded, not timed.
  }, 30_000);

  it('a restored session is persisted; signing in stores it', async () => {
    renderApp('/auth', { login: async () => ({ user, accessToken: 'a1', refreshToken: 'r1' }) });
    expect(localStorage.getItem('beseda.session')).toBeNull();
    await userEvent.type(screen.getByLabelText('Никнейм'), 'anna');
    await userEvent.type(screen.getByLabelText('Пароль'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    await waitFor(() => expect(JSON.parse(localStorage.getItem('beseda.session')!).accessToken).toBe('a1'));
  });
});
