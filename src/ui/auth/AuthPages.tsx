// The sign-in and registration pages under /auth, one chunk loaded only for a signed-out visitor (a signed-in
// user's chats page never fetches it).
import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthFrame, AuthLayout } from './AuthLayout';
import { OidcPage } from './OidcSignIn';
import { RegisterPage } from './RegisterPage';
import { SignInPage } from './SignInPage';

export function AuthPages() {
  return (
    <Routes>
      <Route element={<AuthLayout />}>
        <Route index element={<SignInPage />} />
        <Route path="register" element={<RegisterPage />} />
      </Route>
      <Route
        path="oidc"
        element={
          <AuthFrame>
            <OidcPage />
          </AuthFrame>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
