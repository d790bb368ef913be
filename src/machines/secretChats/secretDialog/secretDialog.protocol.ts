// The dialog «Новый секретный чат» (registry line 'secretDialog', owned by its view while open). Views import this
// module, never secretDialog.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const SECRET_CREATE_FAILED = 'Не удалось создать секретный чат';

export interface SecretDialogInput {
  userId: string;
}

export interface SecretDialogContext extends SecretDialogInput {
  title: string;
  selected: string[];
  /** Ticked friends with no device for secret chats (the creation stopped). */
  noDevice: string[];
  error: string | null;
}

export type SecretDialogEvent =
  | { type: 'secretDialog.toggle'; userId: string }
  | { type: 'secretDialog.titleChanged'; title: string }
  | { type: 'secretDialog.create' };

export type SecretDialogEmitted = { type: 'secretDialog.created'; conversationId: string };

export interface CreateResult {
  conversationId: string | null;
  /** Set when some members have no device: nothing was created. */
  noDevice?: string[];
}

export type SecretDialogRef = MachineRef<SecretDialogContext, SecretDialogEvent, SecretDialogEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * dialogs.effects.ts).
 */
export interface SecretDialogEffects {
  /** Registers this browser as a device (once per sign-in). */
  prepare: PromiseActorLogic<unknown, { userId: string }>;
  create: PromiseActorLogic<CreateResult, { userId: string; memberIds: string[]; title: string | null }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretDialog: SecretDialogRef;
  }
}
