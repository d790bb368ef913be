// «Ссылка-приглашение»: its actor (alive while the section is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { INVITE_TAGS, type Invite, inviteLink } from '../../machines/groupInvites/groupInvites/groupInvites.protocol';

const NONE: Invite[] = [];

export function useGroupInvites(conversationId: string) {
  const actor = useOwnedActor('groupInvites', { conversationId });
  const invites = useSelector(actor, (s) => s?.context.invites ?? NONE);
  const copiedCode = useSelector(actor, (s) => (s?.hasTag(INVITE_TAGS.copied) ? s.context.code : null));
  return {
    links: invites.map((i) => ({
      code: i.code,
      url: inviteLink(window.location.origin, i.code),
      uses: i.uses,
      maxUses: i.maxUses,
      expiresAt: i.expiresAt,
      copied: copiedCode === i.code,
    })),
    busy: useSelector(actor, (s) => s?.hasTag(INVITE_TAGS.busy) ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    /** `expiresInMs` and `maxUses`: null for none. */
    onCreate: (expiresInMs: number | null, maxUses: number | null) =>
      actor.send({
        type: 'invites.create',
        expiresAt: expiresInMs === null ? null : new Date(Date.now() + expiresInMs).toISOString(),
        maxUses,
      }),
    onCopy: (code: string) => actor.send({ type: 'invites.copy', code }),
    onRevoke: (code: string) => actor.send({ type: 'invites.revoke', code }),
  };
}
export type GroupInvitesView = ReturnType<typeof useGroupInvites>;
