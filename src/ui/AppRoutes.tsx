import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthLayout } from './auth/AuthLayout';
import { RegisterPage } from './auth/RegisterPage';
import { SignInPage } from './auth/SignInPage';
import { AppLayout } from './layout/AppLayout';
import { ContactsPage } from './contacts/ContactsPage';
import { CallsPage } from './calls/CallsPage';
import { ChatsPage } from './chats/ChatsPage';
import { SettingsPage } from './settings/SettingsPage';
import { GuestOnly, RequireSession } from './routing/guards';

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
        <Route path="contacts" element={<ContactsPage />} />
        <Route path="calls" element={<CallsPage />} />
        <Route path="settings" element={<SettingsPage />} />
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
