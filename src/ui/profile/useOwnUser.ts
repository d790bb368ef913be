import { useSelector } from '@xstate/react';
import type { User } from '../../contract/entities';
import type { ProfileActorRef } from '../../machines/profile/profile.machine';
import { useSessionRef, useSystemActor } from '../RuntimeContext';

/** The signed-in user's own record: the profile actor's (refetched after changes), else the session's. */
export function useOwnUser(): User | null {
  const profile = useSystemActor<ProfileActorRef>('profile');
  const session = useSessionRef();
  const fromProfile = useSelector(profile, (s) => s?.context.me ?? null);
  const fromSession = useSelector(session, (s) => s.context.session?.user ?? null);
  return fromProfile && fromProfile.id === fromSession?.id ? fromProfile : fromSession;
}
