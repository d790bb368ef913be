// Route guards (spec points 2 and 6). Signed-out users reach only /auth; everyone else needs a session.
// The redirect to /auth remembers where the user came from; a signed-in user on /auth goes there (or to /),
// replacing the history entry — which is also how a successful sign-in leaves the form.
import { useSelector } from '@xstate/react';
import { type ReactNode, useRef } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSessionRef } from '../RuntimeContext';

export interface FromState {
  from?: string;
}

function useSignedIn(): boolean {
  // Signing out counts as signed out at once, so the screen leaves the app while the logout call runs.
  return useSelector(useSessionRef(), (s) => s.matches('signedIn') && !s.matches({ signedIn: 'signingOut' }));
}

export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  const wasSignedIn = useRef(false);
  if (signedIn) {
    wasSignedIn.current = true;
    return children;
  }
  // After a sign-out here the next user should land on /, not on this page.
  const state: FromState | undefined = wasSignedIn.current
    ? undefined
    : { from: location.pathname + location.search + location.hash };
  return <Navigate to="/auth" replace state={state} />;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) return children;
  const from = (location.state as FromState | null)?.from;
  const target = from?.startsWith('/') && !from.startsWith('/auth') ? from : '/';
  return <Navigate to={target} replace />;
}
