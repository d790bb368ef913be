// Route guards (docs/behaviour.md §2 Routes, §6 Roles). Signed-out users reach only /auth; everyone else needs a
// session. The redirect to /auth remembers where the user came from unless the session says not to (after a
// sign-out on purpose); a signed-in user on /auth goes there (or to /), replacing the history entry — which is
// also how a successful sign-in leaves the form.
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSessionRef } from './RuntimeContext';

export interface FromState {
  from?: string;
}

/** Where a person the server requires a second factor of, who has none, sets it up (docs/behaviour.md §10.7a). */
export const TWO_FACTOR_SETUP_PATH = '/settings';

export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useSelector(useSessionRef(), (s) => s.hasTag('signedIn'));
  const rememberOrigin = useSelector(useSessionRef(), (s) => s.context.rememberOrigin);
  const setUpFirst = useSelector(useSessionRef(), (s) => s.context.twoFactorSetup);
  const location = useLocation();
  if (signedIn && setUpFirst && location.pathname !== TWO_FACTOR_SETUP_PATH) {
    return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;
  }
  if (signedIn) return children;
  const state: FromState | undefined = rememberOrigin
    ? { from: location.pathname + location.search + location.hash }
    : undefined;
  return <Navigate to="/auth" replace state={state} />;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  const signedIn = useSelector(useSessionRef(), (s) => s.hasTag('signedIn'));
  const location = useLocation();
  if (!signedIn) return children;
  const from = (location.state as FromState | null)?.from;
  const target = from?.startsWith('/') && !from.startsWith('/auth') ? from : '/';
  return <Navigate to={target} replace />;
}
