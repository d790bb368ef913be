import { useSelector } from '@xstate/react';
import type { ProfileFields } from '../../machines/profile/profile/profile.protocol';
import { useOwnUser } from '../profile/index';
import { useSystemActor } from '../app/RuntimeContext';

/** The settings page's view of the profile actor (systemId 'profile'). */
export function useSettings() {
  const actor = useSystemActor('profile');
  const me = useOwnUser();
  const loaded = useSelector(actor, (s) => s?.context.me != null);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const saved = useSelector(actor, (s) => s?.hasTag('saved') ?? false);
  const error = useSelector(actor, (s) => s?.context.saveError ?? null);
  return {
    me,
    loaded,
    busy,
    saved,
    error,
    onSave: (fields: ProfileFields) => actor?.send({ type: 'profile.save', fields }),
  };
}
