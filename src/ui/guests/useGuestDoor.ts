// The door of an open call for its members: its actor (alive while the call's overlay is shown) as plain values and
// callbacks.
import { useSelector } from '@xstate/react';
import { guestLinkUrl } from '../../contract/guest-rules';
import { DOOR_TAGS, type Waiting } from '../../machines/guests/guestDoor/guestDoor.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: Waiting[] = [];

export function useGuestDoor(room: string) {
  const actor = useOwnedActor('guestDoor', { room });
  const link = useSelector(actor, (s) => s?.context.link ?? null);
  return {
    waiting: useSelector(actor, (s) => s?.context.waiting ?? NONE),
    linkUrl: link ? guestLinkUrl(window.location.origin, link.code) : null,
    linkExpiresAt: link?.expiresAt ?? null,
    error: useSelector(actor, (s) => s?.context.error ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(DOOR_TAGS.busy) ?? true),
    onInvite: () => actor?.send({ type: 'door.invite' }),
    onAdmit: (knockId: string) => actor?.send({ type: 'door.admit', knockId }),
    onDeny: (knockId: string) => actor?.send({ type: 'door.deny', knockId }),
    onRemove: (knockId: string) => actor?.send({ type: 'door.remove', knockId }),
    onDismissError: () => actor?.send({ type: 'door.dismissError' }),
  };
}
export type GuestDoorView = ReturnType<typeof useGuestDoor>;
