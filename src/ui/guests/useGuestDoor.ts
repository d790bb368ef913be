// The door of an open call for its members: its actor (alive while the call's overlay is shown) as plain values and
// callbacks.
import { useSelector } from '@xstate/react';
import { guestLinkUrl } from '../../contract/guest-rules';
import { DOOR_TAGS, type SecretDoor, type Waiting } from '../../machines/guests/guestDoor/guestDoor.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: Waiting[] = [];

/** `secret`: a secret chat's call, whose guests get the call key sealed to them. */
export function useGuestDoor(room: string, secret: SecretDoor | null = null) {
  const actor = useOwnedActor('guestDoor', { room, secret });
  const link = useSelector(actor, (s) => s?.context.link ?? null);
  return {
    waiting: useSelector(actor, (s) => s?.context.waiting ?? NONE),
    /** A secret chat's link carries its secret after «#» (never sent to the server). */
    linkUrl: link ? guestLinkUrl(window.location.origin, link.code) + (link.fragment ?? '') : null,
    encrypted: secret !== null,
    linkExpiresAt: link?.expiresAt ?? null,
    error: useSelector(actor, (s) => s?.context.error ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(DOOR_TAGS.busy) ?? true),
    onInvite: () => actor.send({ type: 'door.invite' }),
    onAdmit: (knockId: string) => actor.send({ type: 'door.admit', knockId }),
    onDeny: (knockId: string) => actor.send({ type: 'door.deny', knockId }),
    onRemove: (knockId: string) => actor.send({ type: 'door.remove', knockId }),
    onDismissError: () => actor.send({ type: 'door.dismissError' }),
  };
}
export type GuestDoorView = ReturnType<typeof useGuestDoor>;
