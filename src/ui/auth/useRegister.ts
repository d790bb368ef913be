import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSessionRef } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';

/**
 * The registration screen's view of the session actor and of the registration mode (its actor lives while the
 * screen is shown); after success it returns to /auth (replacing history). `?invite=CODE` prefills the code.
 */
export function useRegister() {
  const session = useSessionRef();
  const modeActor = useOwnedActor('registrationMode');
  const mode = useSelector(modeActor, (s) => s?.context.mode ?? null);
  const firstAccount = useSelector(modeActor, (s) => s?.context.firstAccount ?? false);
  const [params] = useSearchParams();
  const invite = params.get('invite') ?? '';
  const navigate = useNavigate();
  const busy = useSelector(session, (s) => s.hasTag('registering'));
  const error = useSelector(session, (s) => s.context.registerError);
  useEffect(() => {
    const sub = session.on('session.registered', () => navigate('/auth', { replace: true }));
    return () => {
      sub.unsubscribe();
      session.send({ type: 'session.clearErrors' });
    };
  }, [session, navigate]);
  return {
    busy,
    error,
    /** 'open' until the server said otherwise (the server checks again on submit). */
    mode: mode ?? 'open',
    /** Nobody has registered yet: this account will administer the server. */
    firstAccount,
    invite,
    register: (username: string, displayName: string, password: string, inviteCode?: string) =>
      session.send({
        type: 'session.register',
        username,
        displayName,
        password,
        ...(inviteCode?.trim() ? { inviteCode: inviteCode.trim() } : {}),
      }),
  };
}
