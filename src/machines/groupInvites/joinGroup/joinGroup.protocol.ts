// The page an invite link opens (/join/<code>; registry line 'joinGroup', alive while the page is shown): the group's
// title, picture and member count with «Вступить» («Открыть» for a member), or why the link no longer works. Views
// import this module, never joinGroup.machine.ts.
import type { z } from 'zod';
import type { InvitePreviewResponse } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type InvitePreview = z.output<typeof InvitePreviewResponse>;

export const PREVIEW_FAILED = 'Не удалось открыть ссылку-приглашение';
export const JOIN_FAILED = 'Не удалось вступить в группу. Попробуйте ещё раз.';

export interface JoinGroupInput {
  code: string;
}

export interface JoinGroupContext {
  code: string;
  preview: InvitePreview | null;
  error: string | null;
}

export type JoinGroupEvent = { type: 'join.confirm' } | { type: 'join.retry' };

export const JOIN_TAGS = { busy: 'busy', joined: 'joined', gone: 'gone' } as const;

export type JoinGroupRef = MachineRef<JoinGroupContext, JoinGroupEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/groupInvites/groupInvites.effects.ts).
 */
export interface JoinGroupEffects {
  /** GET /api/invites/:code. */
  loadPreview: PromiseActorLogic<InvitePreview, { code: string }>;
  /** POST /api/invites/:code/join → the group's id. */
  join: PromiseActorLogic<{ conversationId: string }, { code: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The invite link page (spawned while /join/<code> is shown). */
    joinGroup: JoinGroupRef;
  }
}
