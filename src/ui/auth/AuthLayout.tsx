import type { ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { BrandMark } from '../shared/BrandMark';
import './auth.css';

export const PRODUCT_TITLE = 'Беседа';
// A no-break space keeps the dash off the start of a line.
export const TAGLINE = 'Чаты, звонки и друзья\u00a0— на вашем сервере';

/** Brand side panel and the two tabs; the remembered origin travels with the tab links. */
export function AuthLayout() {
  const location = useLocation();
  return (
    <AuthFrame>
      <nav className="tabs" aria-label="Вход и регистрация">
        <NavLink to="/auth" end replace state={location.state} className="tab">
          Войти
        </NavLink>
        <NavLink to="/auth/register" replace state={location.state} className="tab">
          Регистрация
        </NavLink>
      </nav>
      <Outlet />
    </AuthFrame>
  );
}

/** The auth screens' look: the brand side panel and a card (the password-reset page uses it without the tabs). */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="auth">
      <aside className="auth-brand">
        <div className="auth-brand-inner">
          <span className="auth-logo">
            <BrandMark size={64} />
          </span>
          <h1 className="auth-title">{PRODUCT_TITLE}</h1>
          <p className="auth-tagline">{TAGLINE}</p>
        </div>
        <ul className="auth-points" aria-hidden="true">
          <li>Личные и групповые чаты</li>
          <li>Аудио- и видеозвонки</li>
          <li>Ваши данные остаются у вас</li>
        </ul>
      </aside>
      <main className="auth-main">
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}
