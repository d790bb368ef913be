import { Suspense, useState } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { BrandMark } from '../shared/BrandMark';
import { CallLayer } from '../calls/index';
import { LazyKeyboard } from '../chats/index';
import { LazyGuestDoor } from '../guests/index';
import { LazyAnnouncer } from '../conversation/index';
import { LazyReportNotices } from '../reports/index';
import { useAppLayout } from './useAppLayout';
import './app-layout.css';

const NAV = [
  { to: '/', label: 'Чаты', icon: 'M5 6h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-4 3v-3H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z' },
  { to: '/contacts', label: 'Контакты', icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0' },
  {
    to: '/calls',
    label: 'Звонки',
    icon: 'M6 3h3l2 5-2.5 1.5a11 11 0 0 0 5 5L15 12l5 2v3a2 2 0 0 1-2 2A15 15 0 0 1 4 5a2 2 0 0 1 2-2z',
  },
  {
    to: '/settings',
    label: 'Настройки',
    icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 0 0-2-1.2L14.5 3h-4l-.4 2.6a7.6 7.6 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 0 0 2 1.2l.4 2.6h4l.4-2.6a7.6 7.6 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  },
];
/** «Администрирование», for administrators only (docs/behaviour.md §10.20). */
const ADMIN_NAV = {
  to: '/admin',
  label: 'Администрирование',
  icon: 'M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6l7-3zm-3 9l2 2 4-4',
};

/** While the server cannot be reached for new tokens or the socket's link is down (docs/behaviour.md §2 Shared layout). */
const RECONNECTING = 'переподключение…';
const RECONNECTING_TITLE = 'Нет связи с сервером, переподключаемся; сообщения и вход сохранены';

export function AppLayout() {
  const view = useAppLayout();
  return <AppLayoutView {...view} />;
}

export function AppLayoutView(props: ReturnType<typeof useAppLayout>) {
  const { ping } = props;
  const latency = props.reconnecting
    ? RECONNECTING
    : ping.state === 'offline'
      ? 'нет связи'
      : ping.state === 'unknown'
        ? '…'
        : `${ping.latencyMs} мс`;
  // «Выйти» asks first: one stray tap on a phone must not end the session.
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  return (
    <div className="shell" data-route={props.inConversation ? 'conversation' : undefined}>
      <header className="shell-bar">
        <div className="shell-brand">
          <BrandMark size={32} />
          <span>Беседа</span>
        </div>
        <nav className="shell-nav" aria-label="Разделы">
          {(props.isAdmin ? [...NAV, ADMIN_NAV] : NAV).map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.to === '/'}
              // «Чаты» is the section of an open conversation's address too.
              className={({ isActive }) =>
                `shell-link${isActive || (item.to === '/' && props.inConversation) ? ' active' : ''}`
              }
            >
              <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                <path
                  d={item.icon}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinejoin="round"
                  strokeLinecap="round"
                />
              </svg>
              <span>{item.label}</span>
            </NavLink>
          ))}
        </nav>
        <div className="shell-user">
          <span
            className={`ping ${props.reconnecting || ping.state === 'offline' ? 'ping-off' : props.live ? 'ping-live' : ''}`}
            title={
              props.reconnecting
                ? RECONNECTING_TITLE
                : `Задержка до сервера${props.live ? '; события в реальном времени подключены' : ''}`
            }
            data-testid="latency"
          >
            <i aria-hidden="true" />
            <span className="ping-text">{latency}</span>
          </span>
          <span className="shell-name" title={props.eblid ? `EBLID ${props.eblid}` : undefined}>
            {props.displayName}
          </span>
          <button type="button" className="button ghost shell-signout" onClick={() => setConfirmSignOut(true)}>
            Выйти
          </button>
        </div>
      </header>
      {confirmSignOut && (
        <SignOutPrompt
          onConfirm={() => {
            setConfirmSignOut(false);
            props.signOut();
          }}
          onCancel={() => setConfirmSignOut(false)}
        />
      )}
      {props.offlineBanner && (
        <p className="shell-notice shell-offline" role="status" data-testid="offline-banner">
          {props.offlineBanner}
        </p>
      )}
      {props.closedMessage && (
        <p className="shell-notice" role="alert">
          {props.closedMessage}
        </p>
      )}
      <main className="shell-main">
        <Outlet />
      </main>
      <Suspense fallback={null}>
        <CallLayer door={LazyGuestDoor} />
        <LazyReportNotices />
        <LazyAnnouncer />
        <LazyKeyboard />
      </Suspense>
    </div>
  );
}

/** «Выйти из аккаунта?» with «Выйти» and «Отмена»; Escape or a click beside it cancels. */
function SignOutPrompt(props: { onConfirm(): void; onCancel(): void }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop only cancels; Escape does too
    <div
      className="signout-backdrop"
      onClick={props.onCancel}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onCancel();
      }}
    >
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the click only stops the backdrop's */}
      <div
        className="signout-prompt card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="signout-title"
        onClick={(e) => e.stopPropagation()}
      >
        <p id="signout-title">Выйти из аккаунта?</p>
        <div className="form-actions">
          {/* biome-ignore lint/a11y/noAutofocus: the dialog starts on its answer, as a confirmation does */}
          <button type="button" className="button danger" autoFocus onClick={props.onConfirm}>
            Выйти
          </button>
          <button type="button" className="button ghost" onClick={props.onCancel}>
            Отмена
          </button>
        </div>
      </div>
    </div>
  );
}
