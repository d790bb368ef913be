// «Регистрация»: its actor (alive while the tab is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import {
  REGISTRATION_TAGS,
  type ServerSettings,
} from '../../machines/admin/adminRegistration/adminRegistration.protocol';

export function useAdminRegistration() {
  const actor = useOwnedActor('adminRegistration');
  return {
    settings: useSelector(actor, (s) => s?.context.settings ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(REGISTRATION_TAGS.busy) ?? true),
    saved: useSelector(actor, (s) => s?.hasTag(REGISTRATION_TAGS.saved) ?? false),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onSave: (change: Partial<ServerSettings>) => actor.send({ type: 'registration.save', change }),
    onReload: () => actor.send({ type: 'registration.reload' }),
  };
}
export type AdminRegistrationView = ReturnType<typeof useAdminRegistration>;
