// The dialog «Новый секретный чат»'s view of its actor (registry line 'secretDialog', alive while the dialog is open)
// and of the friends (systemId 'contacts').
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { displayName } from '../../contract/format';
import type { SecretDialogEvent } from '../../machines/secretChats/secretDialog/secretDialog.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';

export function useSecretDialog(userId: string, onClose: () => void) {
  const actor = useOwnedActor('secretDialog', { userId });
  const contacts = useSystemActor('contacts');
  const title = useSelector(actor, (s) => s?.context.title ?? '');
  const selected = useSelector(actor, (s) => s?.context.selected ?? []);
  const noDevice = useSelector(actor, (s) => s?.context.noDevice ?? []);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const preparing = useSelector(actor, (s) => s?.hasTag('preparing') ?? true);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const created = useSelector(actor, (s) => s?.hasTag('created') ?? false);
  const all = useSelector(contacts, (s) => s?.context.contacts ?? []);
  const friends = all.filter((c) => c.status === 'ACCEPTED').map((c) => c.friend);
  // Made: the actor opened it; the dialog closes.
  useEffect(() => {
    if (created) onClose();
  }, [created, onClose]);
  const names = noDevice.map((id) => {
    const f = friends.find((p) => p.id === id);
    return f ? displayName(f) : 'участника';
  });
  const send = (e: SecretDialogEvent) => actor.send(e);
  return {
    title,
    selected,
    friends,
    preparing,
    busy,
    error,
    noDevice:
      names.length === 0
        ? null
        : `Нет устройства для секретных чатов: ${names.join(', ')}. Нужно открыть Беседу и нажать «Новый секретный чат»`,
    onClose,
    onToggle: (id: string) => send({ type: 'secretDialog.toggle', userId: id }),
    onTitle: (value: string) => send({ type: 'secretDialog.titleChanged', title: value }),
    onCreate: () => send({ type: 'secretDialog.create' }),
  };
}
