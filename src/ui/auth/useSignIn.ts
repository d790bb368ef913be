import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useSessionRef } from '../app/RuntimeContext';

/** The sign-in screen's view of the session actor. Navigation after success is the guard's job. */
export function useSignIn() {
  const session = useSessionRef();
  const busy = useSelector(session, (s) => s.hasTag('signingIn'));
  const error = useSelector(session, (s) => s.context.signInError);
  const registeredUsername = useSelector(session, (s) => s.context.registeredUsername);
  const secondFactor = useSelector(session, (s) => s.hasTag('secondFactor'));
  const secondFactorError = useSelector(session, (s) => s.context.secondFactorError);
  const secondFactorMethods = useSelector(session, (s) => s.context.secondFactorMethods);
  useEffect(() => () => session.send({ type: 'session.clearErrors' }), [session]);
  return {
    busy,
    error,
    registeredUsername,
    secondFactor,
    secondFactorError,
    secondFactorMethods,
    signIn: (username: string, password: string) => session.send({ type: 'session.signIn', username, password }),
    submitCode: (code: string, remember: boolean) => session.send({ type: 'session.secondFactor', code, remember }),
    usePasskey: (remember: boolean) => session.send({ type: 'session.passkeySecondFactor', remember }),
    cancelSecondFactor: () => session.send({ type: 'session.cancelSecondFactor' }),
  };
}
