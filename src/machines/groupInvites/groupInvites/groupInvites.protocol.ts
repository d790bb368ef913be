// «Ссылка-приглашение» in a group's «Информация» (registry line 'groupInvites', alive while the section is shown, for owner
// and admins): the group's working links, «Создать ссылку», «Копировать» and «Отозвать». Views import this module,
// never groupInvites.machine.ts.
import type { z } from 'zod';
import type { GroupInvite } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type Invite = z.output<typeof GroupInvite>;

export const INVITES_FAILED = 'Не удалось загрузить ссылки-приглашения';
export const INVITE_ACTION_FAILED = 'Не удалось изменить ссылку. Попробуйте ещё раз.';

export interface GroupInvitesInput {
  conversationId: string;
}

export interface GroupInvitesContext {
  conversationId: string;
  invites: Invite[];
  /** The code being revoked or copied. */
  code: string | null;
  /** The limits of the link being created. */
  limits: { expiresAt: string | null; maxUses: number | null };
  error: string | null;
}

export type GroupInvitesEvent =
  /** A new link, optionally expiring at a time and letting in at most `maxUses` people. */
  | { type: 'invites.create'; expiresAt?: string | null; maxUses?: number | null }
  | { type: 'invites.revoke'; code: string }
  | { type: 'invites.copy'; code: string }
  | { type: 'invites.reload' };

export const INVITE_TAGS = { busy: 'busy', copied: 'copied' } as const;

/** The address a link opens: /join/<code> on this site. */
export const inviteLink = (origin: string, code: string) => `${origin}/join/${code}`;

export type GroupInvitesRef = MachineRef<GroupInvitesContext, GroupInvitesEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/groupInvites/groupInvites.effects.ts).
 */
export interface GroupInvitesEffects {
  /** GET /api/conversations/:id/invites. */
  loadInvites: PromiseActorLogic<Invite[], { conversationId: string }>;
  /** POST /api/conversations/invites. */
  createInvite: PromiseActorLogic<
    unknown,
    { conversationId: string; expiresAt: string | null; maxUses: number | null }
  >;
  /** POST /api/conversations/invites/revoke. */
  revokeInvite: PromiseActorLogic<unknown, { code: string }>;
  /** The link to the clipboard. */
  copyInvite: PromiseActorLogic<unknown, { code: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** A group's invite links (spawned while «Ссылка-приглашение» is shown). */
    groupInvites: GroupInvitesRef;
  }
}
