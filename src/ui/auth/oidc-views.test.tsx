import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { SignInMethodsView } from '../account/SignInMethodsSection';
import { OidcOfferView, OidcPageView } from './OidcSignIn';
import type { OidcSignInViewProps } from './useOidcSignIn';

const pageProps = (over: Partial<OidcSignInViewProps> = {}): OidcSignInViewProps => ({
  busy: false,
  failed: false,
  pending: null,
  error: null,
  onStart: vi.fn(),
  onCreate: vi.fn(),
  onLink: vi.fn(),
  ...over,
});

describe('«Войти через …»', () => {
  it('shows the button above the password form', async () => {
    const onStart = vi.fn();
    render(
      <OidcOfferView provider="Корпоративный вход" passwords busy={false} error={null} onStart={onStart}>
        <form aria-label="Вход" />
      </OidcOfferView>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Войти через Корпоративный вход' }));
    expect(onStart).toHaveBeenCalledOnce();
    expect(screen.getByRole('form', { name: 'Вход' })).toBeInTheDocument();
  });

  it('hides the password form behind «Вход для администратора» when passwords are off', async () => {
    render(
      <OidcOfferView provider="Корпоративный вход" passwords={false} busy={false} error={null} onStart={vi.fn()}>
        <form aria-label="Вход" />
      </OidcOfferView>,
    );
    expect(screen.queryByRole('form', { name: 'Вход' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Вход для администратора' }));
    expect(screen.getByRole('form', { name: 'Вход' })).toBeInTheDocument();
  });
});

describe('/auth/oidc', () => {
  it('waits, then offers to create an account or link one by its password', async () => {
    const { rerender } = render(<OidcPageView {...pageProps({ busy: true })} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('status')).toHaveTextContent('Входим…');
    const onCreate = vi.fn();
    const onLink = vi.fn();
    const pending = { pendingLink: 'pl', displayName: 'Ольга', canCreate: true, needsInvite: true };
    rerender(<OidcPageView {...pageProps({ pending, onCreate, onLink })} />);
    expect(screen.getByRole('heading', { name: 'Первый вход, Ольга' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Код приглашения'), ' CODE123 ');
    await userEvent.click(screen.getByRole('button', { name: 'Создать учётную запись' }));
    expect(onCreate).toHaveBeenCalledWith(' CODE123 ');
    const link = screen.getByRole('form', { name: 'Связать с существующей учётной записью' });
    await userEvent.type(screen.getByLabelText('Никнейм'), 'olga');
    await userEvent.type(screen.getByLabelText('Пароль'), 'пароль');
    await userEvent.click(screen.getByRole('button', { name: 'Связать и войти' }));
    expect(onLink).toHaveBeenCalledWith('olga', 'пароль');
    expect(link).toBeInTheDocument();
  });

  it('offers only linking while registration is closed', () => {
    const pending = { pendingLink: 'pl', displayName: '', canCreate: false, needsInvite: false };
    render(<OidcPageView {...pageProps({ pending })} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('heading', { name: 'Первый вход' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Создать учётную запись' })).toBeNull();
    expect(screen.getByText(/Регистрация на сервере закрыта/)).toBeInTheDocument();
  });

  it('shows a refusal with a way to start again', async () => {
    const onStart = vi.fn();
    const error = 'Код входа уже использован или устарел. Начните вход заново';
    render(<OidcPageView {...pageProps({ failed: true, error, onStart })} />, { wrapper: MemoryRouter });
    expect(screen.getByRole('alert')).toHaveTextContent(error);
    await userEvent.click(screen.getByRole('button', { name: 'Начать вход заново' }));
    expect(onStart).toHaveBeenCalledOnce();
    expect(screen.getByRole('link', { name: 'К странице входа' })).toHaveAttribute('href', '/auth');
  });
});

describe('«Способы входа»', () => {
  it('lists the password and the provider', () => {
    render(
      <SignInMethodsView
        methods={{ password: false, provider: 'Корпоративный вход' }}
        busy={false}
        error={null}
        onRetry={vi.fn()}
      />,
    );
    expect(screen.getByText('Пароль не задан')).toBeInTheDocument();
    expect(screen.getByText('Через «Корпоративный вход»')).toBeInTheDocument();
  });
});
