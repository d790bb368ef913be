import { useSelector } from '@xstate/react';
import type { User } from '../../contract/entities';
import { useSessionRef, useSystemActor } from '../app/RuntimeContext';

/** The signed-in user's own record: the profile actor's (refetched after changes), else the session's. */
export function useOwnUser(): User | null {
  const profile = useSystemActor('profile');
  const session = useSessionRef();
  const fromProfile = useSelector(profile, (s) => s?.context.me ?? null);
  const fromSession = useSelector(session, (s) => s.context.session?.user ?? null);
  return fromProfile && fromProfile.id === fromSession?.id ? fromProfile : fromSession;
}
