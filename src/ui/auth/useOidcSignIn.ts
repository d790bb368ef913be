import { useSelector } from '@xstate/react';
import { OIDC_TAGS, type OidcPending } from '../../machines/auth/oidcSignIn/oidcSignIn.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

/**
 * The organisation's sign-in as plain values and callbacks: `callback` is the provider's answer on /auth/oidc (its
 * query string), null on the sign-in page, where the actor only leaves for the provider.
 */
export function useOidcSignIn(callback: string | null) {
  const actor = useOwnedActor('oidcSignIn', { callback });
  const busy = useSelector(actor, (s) => s?.hasTag(OIDC_TAGS.busy) ?? true);
  const failed = useSelector(actor, (s) => s?.hasTag(OIDC_TAGS.failed) ?? false);
  const pending = useSelector(actor, (s) => s?.context.pending ?? null) as OidcPending | null;
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return {
    busy,
    failed,
    pending,
    error,
    onStart: () => actor.send({ type: 'oidc.start' }),
    onCreate: (inviteCode: string) =>
      actor.send(inviteCode.trim() ? { type: 'oidc.create', inviteCode: inviteCode.trim() } : { type: 'oidc.create' }),
    onLink: (username: string, password: string) => actor.send({ type: 'oidc.link', username, password }),
  };
}
export type OidcSignInViewProps = ReturnType<typeof useOidcSignIn>;
