// The invite codes' actor (alive while the codes are shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { useOwnUser } from '../profile/index';
import {
  INVITE_TAGS,
  type NewInvite,
  type RegistrationInvite,
} from '../../machines/inviteCodes/inviteCodes/inviteCodes.protocol';

const NONE: RegistrationInvite[] = [];

export function useInviteCodes() {
  const actor = useOwnedActor('inviteCodes');
  const isAdmin = useOwnUser()?.role === 'admin';
  const mode = useSelector(actor, (s) => s?.context.mode ?? null);
  const canCreate = useSelector(actor, (s) => s?.context.canCreate ?? false);
  return {
    /** «Приглашения» in Settings: always for administrators, for members while registration is by invitation and
     * they may invite. */
    shown: canCreate && (isAdmin || mode === 'invites'),
    invites: useSelector(actor, (s) => s?.context.invites ?? NONE),
    copiedCode: useSelector(actor, (s) => (s?.hasTag(INVITE_TAGS.copied) ? s.context.code : null)),
    busy: useSelector(actor, (s) => s?.hasTag(INVITE_TAGS.busy) ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onCreate: (invite: NewInvite) => actor.send({ type: 'invites.create', invite }),
    onRevoke: (code: string) => actor.send({ type: 'invites.revoke', code }),
    onCopy: (code: string) => actor.send({ type: 'invites.copy', code }),
    onReload: () => actor.send({ type: 'invites.reload' }),
  };
}
export type InviteCodesViewProps = Omit<ReturnType<typeof useInviteCodes>, 'shown'> & {
  /** The section's title: «Коды приглашения» (administration) or «Приглашения» (Settings). */
  title: string;
  /** Show who made each code (administrators see everyone's). */
  showAuthor?: boolean;
};
