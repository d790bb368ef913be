import { useSelector } from '@xstate/react';
import type { SignInMethods } from '../../machines/account/signInMethods/signInMethods.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

/** «Способы входа»: its actor (alive while the section is mounted) as plain values and callbacks. */
export function useSignInMethods() {
  const actor = useOwnedActor('signInMethods');
  const methods = useSelector(actor, (s) => s?.context.methods ?? null) as SignInMethods | null;
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return { methods, busy, error, onRetry: () => actor.send({ type: 'signInMethods.retry' }) };
}
export type SignInMethodsViewProps = ReturnType<typeof useSignInMethods>;
