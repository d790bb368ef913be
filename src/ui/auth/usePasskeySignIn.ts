import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';

/** Whether this browser can use passkeys at all (WebAuthn): without it the button is not offered. */
const supported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** «Войти с ключом доступа»: its actor (alive while the sign-in page is shown) as values and a callback. */
export function usePasskeySignIn() {
  const actor = useOwnedActor('passkeySignIn');
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return { supported: supported(), busy, error, onStart: () => actor.send({ type: 'passkey.start' }) };
}
export type PasskeySignInViewProps = ReturnType<typeof usePasskeySignIn>;
