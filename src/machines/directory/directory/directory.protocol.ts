// «Люди» and «Открытые группы» (docs/behaviour.md §10.25; owned by the contacts page while it shows them): the
// directory the administrator turned on, searched by name, @username or EBLID, and the open groups joined with one
// click. Views import this module, never directory.machine.ts.

import type { PromiseActorLogic } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import type { OpenGroup } from '../../../contract/directory';
import type { PublicUser } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';

export const DIRECTORY_FAILED = 'Не удалось загрузить каталог. Попробуйте ещё раз.';
export const JOIN_FAILED = 'Не удалось вступить в группу. Попробуйте ещё раз.';

/** What one load of the directory gives; null when the administrator keeps it off. */
export type DirectoryPage = { users: PublicUser[]; groups: OpenGroup[] } | null;

export interface DirectoryContext {
  /** The search as typed. */
  q: string;
  users: PublicUser[];
  groups: OpenGroup[];
  /** The open group being joined. */
  joining: string | null;
  error: string | null;
}

export type DirectoryEvent =
  | { type: 'directory.search'; q: string }
  | { type: 'directory.join'; conversationId: string }
  | { type: 'directory.retry' };

/** Joined: whoever shows the page may open the chat (the chats actor is told by the machine itself). */
export type DirectoryEmitted = { type: 'directory.joined'; conversationId: string };

/** Tags the views ask. */
export const DIRECTORY_TAGS = {
  /** The directory is on and its lists are shown (also while searching or joining). */
  shown: 'shown',
  /** The administrator keeps it off: nothing of it is shown. */
  off: 'off',
  busy: 'busy',
  failed: 'failed',
} as const;

export type DirectoryRef = MachineRef<DirectoryContext, DirectoryEvent, DirectoryEmitted>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Люди» and «Открытые группы» (spawned while the contacts page shows them). */
    directory: DirectoryRef;
  }
}

/** The machine's port: the effects it leaves to its feature's services (src/services/directory/directory.effects.ts). */
export interface DirectoryEffects {
  /** `first`: the page's first load, which asks first whether the directory is on (null when it is off). */
  load: PromiseActorLogic<DirectoryPage, { q: string; first?: boolean }>;
  join: PromiseActorLogic<ResponseOf<'joinOpenGroup'>, { conversationId: string }>;
}
