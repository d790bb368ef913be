import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { ChatsPage } from './chats/ChatsPage';
import { AppLayout } from './layout/AppLayout';
import { lazyView, PageLoading } from './lazy-view';
import { GuestOnly, RequireSession } from './routing/guards';

// Everything but the chats page loads on first visit: the chats page's first bundle stays within its budget
// (bench/client/bundle.ts). A page whose chunk fails to load offers a retry (lazy-view.tsx).
export const ContactsPage = lazyView(() => import('./contacts/ContactsPage').then((m) => m.ContactsPage));
export const CallsPage = lazyView(() => import('./calls/CallsPage').then((m) => m.CallsPage));
export const SettingsPage = lazyView(() => import('./settings/SettingsPage').then((m) => m.SettingsPage));
/** Sign-in and registration: only a signed-out visitor fetches them (tests preload them). */
export const AuthPages = lazyView(() => import('./auth/AuthPages').then((m) => m.AuthPages));

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/auth/*"
        element={
          <GuestOnly>
            <Suspense fallback={<PageLoading />}>
              <AuthPages />
            </Suspense>
          </GuestOnly>
        }
      />
      <Route
        element={
          <RequireSession>
            <AppLayout />
          </RequireSession>
        }
      >
        <Route index element={<ChatsPage />} />
        <Route path="contacts" element={<Suspense fallback={<PageLoading />}><ContactsPage /></Suspense>} />
        <Route path="calls" element={<Suspense fallback={<PageLoading />}><CallsPage /></Suspense>} />
        <Route path="settings" element={<Suspense fallback={<PageLoading />}><SettingsPage /></Suspense>} />
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
