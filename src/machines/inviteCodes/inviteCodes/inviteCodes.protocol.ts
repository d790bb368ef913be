// Registration invite codes (registry line 'inviteCodes', alive while «Коды приглашения» in «Администрирование» or
// «Приглашения» in Settings is shown): the codes the caller may see (administrators every one, members their own),
// whether the caller may make them, and the server's registration mode (docs/administration.md, Registration).
// Views import this module, never inviteCodes.machine.ts.
import type { RegistrationInvite, RegistrationMode } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type { RegistrationInvite, RegistrationMode };

export const INVITES_FAILED = 'Не удалось загрузить коды приглашения';
export const INVITE_CODE_FAILED = 'Не удалось изменить код приглашения. Попробуйте ещё раз.';

/** A new invite code's limits: hours until it expires, uses, a note (each optional). */
export interface NewInvite {
  expiresInHours: number | null;
  maxUses: number | null;
  note: string;
}

/** What one load reads: the registration mode, the caller's codes and whether the caller may make one. */
export interface InviteCodesState {
  mode: RegistrationMode;
  invites: RegistrationInvite[];
  canCreate: boolean;
}

export interface InviteCodesContext {
  mode: RegistrationMode | null;
  invites: RegistrationInvite[];
  canCreate: boolean;
  /** The invite being created. */
  draft: NewInvite | null;
  /** The code being revoked or copied. */
  code: string | null;
  error: string | null;
}

export type InviteCodesEvent =
  | { type: 'invites.create'; invite: NewInvite }
  | { type: 'invites.revoke'; code: string }
  | { type: 'invites.copy'; code: string }
  | { type: 'invites.reload' };

export const INVITE_TAGS = { busy: 'busy', copied: 'copied' } as const;

/** The registration screen's address with a code filled in: /auth/register?invite=<code> on this site. */
export const registrationInviteLink = (origin: string, code: string) =>
  `${origin}/auth/register?invite=${encodeURIComponent(code)}`;

export type InviteCodesRef = MachineRef<InviteCodesContext, InviteCodesEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/inviteCodes/inviteCodes.effects.ts).
 */
export interface InviteCodesEffects {
  /** GET /api/registration and GET /api/registration/invites. */
  load: PromiseActorLogic<InviteCodesState, unknown>;
  /** POST /api/registration/invites. */
  createInvite: PromiseActorLogic<unknown, NewInvite>;
  /** POST /api/registration/invites/revoke. */
  revokeInvite: PromiseActorLogic<unknown, { code: string }>;
  /** The code's registration link to the clipboard. */
  copyCode: PromiseActorLogic<unknown, { code: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** Invite codes (spawned while «Коды приглашения» or «Приглашения» is shown). */
    inviteCodes: InviteCodesRef;
  }
}
