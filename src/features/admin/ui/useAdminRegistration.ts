// «Регистрация»: its actor (alive while the tab is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../../../core/ui/useOwnedActor';
import {
  type NewInvite,
  REGISTRATION_TAGS,
  type RegistrationInvite,
  type ServerSettings,
} from '../machines/adminRegistration/adminRegistration.protocol';

const NONE: RegistrationInvite[] = [];

export function useAdminRegistration() {
  const actor = useOwnedActor('adminRegistration');
  const copiedCode = useSelector(actor, (s) => (s?.hasTag(REGISTRATION_TAGS.copied) ? s.context.code : null));
  return {
    settings: useSelector(actor, (s) => s?.context.settings ?? null),
    invites: useSelector(actor, (s) => s?.context.invites ?? NONE),
    copiedCode,
    busy: useSelector(actor, (s) => s?.hasTag(REGISTRATION_TAGS.busy) ?? true),
    saved: useSelector(actor, (s) => s?.hasTag(REGISTRATION_TAGS.saved) ?? false),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onSave: (change: Partial<ServerSettings>) => actor?.send({ type: 'registration.save', change }),
    onCreate: (invite: NewInvite) => actor?.send({ type: 'registration.createInvite', invite }),
    onRevoke: (code: string) => actor?.send({ type: 'registration.revoke', code }),
    onCopy: (code: string) => actor?.send({ type: 'registration.copy', code }),
    onReload: () => actor?.send({ type: 'registration.reload' }),
  };
}
export type AdminRegistrationView = ReturnType<typeof useAdminRegistration>;
