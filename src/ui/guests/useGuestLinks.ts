// «Ссылки на звонки»: its actor (alive while the section is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { guestLinkUrl } from '../../contract/guest-rules';
import { type GuestLink, LINKS_TAGS } from '../../machines/guests/guestLinks/guestLinks.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: GuestLink[] = [];

export interface GuestLinksWho {
  /** The signed-in user's id: their own links say «Вы» and they may always revoke them. */
  me: string;
  /** A group's owner or admin: chooses «Кто впускает гостей» and revokes any link. */
  manage: boolean;
  /** A group (a direct chat and a named room have no «Кто впускает гостей»). */
  group: boolean;
}

export function useGuestLinks(room: string, who: GuestLinksWho) {
  const actor = useOwnedActor('guestLinks', { room });
  const links = useSelector(actor, (s) => s?.context.links ?? NONE);
  const adminsOnly = useSelector(actor, (s) => s?.context.adminsOnly ?? false);
  const copiedCode = useSelector(actor, (s) => (s?.hasTag(LINKS_TAGS.copied) ? s.context.code : null));
  // Whoever decides at the door may revoke any link; everyone may revoke their own (docs/behaviour.md §10.40).
  const decides = !adminsOnly || who.manage;
  return {
    links: links.map((l) => ({
      code: l.code,
      url: guestLinkUrl(window.location.origin, l.code),
      by: l.createdBy.id === who.me ? 'Вы' : l.createdBy.displayName,
      expiresAt: l.expiresAt,
      copied: copiedCode === l.code,
      canRevoke: l.createdBy.id === who.me || decides,
    })),
    enabled: useSelector(actor, (s) => s?.context.enabled ?? true),
    adminsOnly,
    /** «Кто впускает гостей» as a choice (owner and admins of a group), a note (other members) or nothing. */
    admission: who.group ? (who.manage ? ('choice' as const) : ('note' as const)) : null,
    busy: useSelector(actor, (s) => s?.hasTag(LINKS_TAGS.busy) ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onCreate: (hours: number) => actor.send({ type: 'links.create', hours }),
    onCopy: (code: string) => actor.send({ type: 'links.copy', code }),
    onRevoke: (code: string) => actor.send({ type: 'links.revoke', code }),
    onAdmission: (only: boolean) => actor.send({ type: 'links.admission', adminsOnly: only }),
  };
}
export type GuestLinksView = ReturnType<typeof useGuestLinks>;
