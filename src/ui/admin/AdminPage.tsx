// «Администрирование» /admin (docs/behaviour.md §10.20, docs/administration.md): tabs «Пользователи», «Регистрация»,
// «Жалобы» and «Сервер», each with its own actor alive while it is shown. Only administrators get here from the
// menu; anyone else who opens the address reads that it is not for them (the server refuses them anyway). Links are
// absolute: relative ones under a splat route would resolve against the tab shown.
import { NavLink, Navigate, Route, Routes } from 'react-router-dom';
import { RegistrationTab } from './RegistrationTab';
import { ReportsTab } from './ReportsTab';
import { ServerTab } from './ServerTab';
import { UsersTab } from './UsersTab';
import { useAdminAccess } from './useAdminAccess';
import '../shared/admin-parts.css';
import './admin.css';

const TABS = [
  { to: '/admin/users', label: 'Пользователи' },
  { to: '/admin/registration', label: 'Регистрация' },
  { to: '/admin/reports', label: 'Жалобы' },
  { to: '/admin/server', label: 'Сервер' },
];

export function AdminPage() {
  return <AdminPageView {...useAdminAccess()} />;
}

export function AdminPageView(props: { isAdmin: boolean }) {
  return (
    <section className="page admin-page" aria-labelledby="admin-title">
      <header className="page-head">
        <h1 id="admin-title">Администрирование</h1>
      </header>
      {!props.isAdmin ? (
        <p className="card" role="alert">
          Доступно только администраторам
        </p>
      ) : (
        <>
          <nav className="admin-tabs" aria-label="Разделы администрирования">
            {TABS.map((t) => (
              <NavLink key={t.to} to={t.to} className={({ isActive }) => `admin-tab${isActive ? ' active' : ''}`}>
                {t.label}
              </NavLink>
            ))}
          </nav>
          <Routes>
            <Route index element={<Navigate to="/admin/users" replace />} />
            <Route path="users" element={<UsersTab />} />
            <Route path="registration" element={<RegistrationTab />} />
            <Route path="reports" element={<ReportsTab />} />
            <Route path="server" element={<ServerTab />} />
            <Route path="*" element={<Navigate to="/admin/users" replace />} />
          </Routes>
        </>
      )}
    </section>
  );
}
