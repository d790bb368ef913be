import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { LazyAdminPage } from '../admin/index';
import { LazyAuthPages, LazyResetPasswordPage } from '../auth/index';
import { LazyCallsPage } from '../calls/index';
import { ChatsPage } from '../chats/index';
import { LazyContactsPage } from '../contacts/index';
import { LazySettingsPage } from '../settings/index';
import { LazyJoinPage } from '../groupInvites/index';
import { LazyGuestDoor, LazyGuestPage } from '../guests/index';
import { AppLayout } from './AppLayout';
import { PageLoading } from '../shared/lazy-view';
import { GuestOnly, RequireSession } from './guards';

// Everything but the chats page loads on first visit: the chats page's first bundle stays within its budget
// (bench/client/bundle.ts). A page whose chunk fails to load offers a retry (lazy-view.tsx).
export const ContactsPage = LazyContactsPage;
export const CallsPage = LazyCallsPage;
export const SettingsPage = LazySettingsPage;
/** Sign-in and registration: only a signed-out visitor fetches them (tests preload them). */
export const AuthPages = LazyAuthPages;

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
      {/* A password-reset link (docs/administration.md): signed out or signed in, outside both guards. */}
      <Route
        path="/reset/:token"
        element={
          <Suspense fallback={<PageLoading />}>
            <LazyResetPasswordPage />
          </Suspense>
        }
      />
      {/* A guest link to a call (docs/behaviour.md §10.40): for people without an account, outside both guards. */}
      <Route
        path="/g/:code"
        element={
          <Suspense fallback={<PageLoading />}>
            <LazyGuestPage />
          </Suspense>
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
        {/* An open conversation (the navigation actor opens what the address names). */}
        <Route path="c/:conversationId" element={<ChatsPage />} />
        <Route
          path="contacts"
          element={
            <Suspense fallback={<PageLoading />}>
              <ContactsPage />
            </Suspense>
          }
        />
        <Route
          path="calls"
          element={
            <Suspense fallback={<PageLoading />}>
              <CallsPage door={LazyGuestDoor} />
            </Suspense>
          }
        />
        <Route
          path="join/:code"
          element={
            <Suspense fallback={<PageLoading />}>
              <LazyJoinPage />
            </Suspense>
          }
        />
        <Route
          path="admin/*"
          element={
            <Suspense fallback={<PageLoading />}>
              <LazyAdminPage />
            </Suspense>
          }
        />
        <Route
          path="settings"
          element={
            <Suspense fallback={<PageLoading />}>
              <SettingsPage />
            </Suspense>
          }
        />
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
