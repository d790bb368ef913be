// Blocking people (registry line 'blocking', alive while a conversation pane or the settings section shows it):
// «Заблокировать» / «Разблокировать» from «Информация» or from the notice that replaces a blocked chat's composer, and
// the list «Заблокированные» in Settings. Views import this module, never blocking.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { PublicUser } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const BLOCK_FAILED = 'Не удалось изменить блокировку. Попробуйте ещё раз.';
export const BLOCKED_LIST_FAILED = 'Не удалось загрузить список заблокированных';

export interface BlockingInput {
  /** Load the list of the blocked at once (Settings). */
  list?: boolean;
}

export interface BlockingContext {
  /** Whether the list was asked for at the start. */
  list: boolean;
  /** The people the user blocked, once the list was asked for (Settings). */
  users: PublicUser[];
  loaded: boolean;
  /** Whose block is being changed. */
  changing: { userId: string; block: boolean } | null;
  error: string | null;
}

export type BlockingEvent =
  | { type: 'blocking.load' }
  | { type: 'blocking.block'; userId: string }
  | { type: 'blocking.unblock'; userId: string };

export type BlockingRef = MachineRef<BlockingContext, BlockingEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/blocking/blocking.effects.ts). */
export interface BlockingEffects {
  /** GET /api/users/blocked. */
  loadBlocked: PromiseActorLogic<PublicUser[], unknown>;
  /** POST /api/users/block or /unblock. */
  setBlock: PromiseActorLogic<unknown, { userId: string; block: boolean }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** Blocking (spawned while a conversation pane or the settings section is shown). */
    blocking: BlockingRef;
  }
}
