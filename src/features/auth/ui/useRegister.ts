import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSessionRef } from '../../../core/ui/RuntimeContext';

/** The registration screen's view of the session actor; after success it returns to /auth (replacing history). */
export function useRegister() {
  const session = useSessionRef();
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
    register: (username: string, displayName: string, password: string) =>
      session.send({ type: 'session.register', username, displayName, password }),
  };
}
