// The dialog «Новый секретный чат» (registry line 'secretDialog', owned by its view while open). Views import this
// module, never secretDialog.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

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

declare module '../../shared/system' {
  interface OwnedActors {
    secretDialog: SecretDialogRef;
  }
}
