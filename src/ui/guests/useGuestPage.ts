// The guest link's page: its actor (alive while the page is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { GUEST_TAGS } from '../../machines/guests/guestPage/guestPage.protocol';

/** `fragment`: the page's URL fragment, where a secret chat's link carries its secret. */
export function useGuestPage(code: string, fragment = '') {
  const actor = useOwnedActor('guestPage', { code, fragment });
  return {
    /** A secret chat's call: encrypted end to end with the key sealed to this guest. */
    encrypted: useSelector(actor, (s) => s?.context.info?.encrypted === true),
    callKey: useSelector(actor, (s) => s?.context.callKey ?? null),
    info: useSelector(actor, (s) => s?.context.info ?? null),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    name: useSelector(actor, (s) => s?.context.name ?? ''),
    media: useSelector(actor, (s) => s?.context.media ?? null),
    video: useSelector(actor, (s) => s?.context.video ?? true),
    audio: useSelector(actor, (s) => s?.context.audio ?? true),
    busy: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.busy) ?? true),
    form: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.form) ?? false),
    lobby: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.lobby) ?? false),
    call: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.call) ?? false),
    ended: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.ended) ?? false),
    /** The call is over; the link may let the guest into a later one. */
    again: useSelector(actor, (s) => s?.hasTag(GUEST_TAGS.again) ?? false),
    onKnock: (name: string, video: boolean, audio: boolean) => actor.send({ type: 'guest.knock', name, video, audio }),
    onRetry: () => actor.send({ type: 'guest.retry' }),
    onCancel: () => actor.send({ type: 'guest.cancel' }),
    onLeft: () => actor.send({ type: 'guest.left' }),
    onAgain: () => actor.send({ type: 'guest.again' }),
  };
}
export type GuestPageView = ReturnType<typeof useGuestPage>;
