import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthLayout } from './auth/AuthLayout';
import { RegisterPage } from './auth/RegisterPage';
import { SignInPage } from './auth/SignInPage';
import { AppLayout } from './layout/AppLayout';
import { ChatsPage } from './chats/ChatsPage';
import { GuestOnly, RequireSession } from './routing/guards';

// Pages other than the chats page load on first visit: the chats page's first bundle stays small.
const ContactsPage = lazy(() => import('./contacts/ContactsPage').then((m) => ({ default: m.ContactsPage })));
const CallsPage = lazy(() => import('./calls/CallsPage').then((m) => ({ default: m.CallsPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/auth"
        element={
          <GuestOnly>
            <AuthLayout />
          </GuestOnly>
        }
      >
        <Route index element={<SignInPage />} />
        <Route path="register" element={<RegisterPage />} />
      </Route>
      <Route
        element={
          <RequireSession>
            <AppLayout />
          </RequireSession>
        }
      >
        <Route index element={<ChatsPage />} />
        <Route path="contacts" element={<Suspense fallback={null}><ContactsPage /></Suspense>} />
        <Route path="calls" element={<Suspense fallback={null}><CallsPage /></Suspense>} />
        <Route path="settings" element={<Suspense fallback={null}><SettingsPage /></Suspense>} />
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
