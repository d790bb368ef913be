// The call key of a secret chat's call (registry line 'secretCall', owned by the call view while a secret chat's call is
// open; docs/secret-chats.md "Calls"). Views import this module, never secretCall.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export interface SecretCallInput {
  userId: string;
  conversationId: string;
}

/** LiveKit's frame key for one epoch of the group: 32 bytes from the MLS exporter. */
export interface CallKey {
  epoch: number;
  key: Uint8Array;
}

export interface SecretCallContext extends SecretCallInput {
  /** The newest epoch this device's group reached (from the chat's actor); null before any is known. */
  epoch: number | null;
  /** The key of the newest epoch derived so far; null until the first one is. */
  key: CallKey | null;
  error: string | null;
}

export type SecretCallEvent =
  /** The chat's actor applied commits: the group is in this epoch now. */
  { type: 'secretCall.epoch'; epoch: number };

export const CALL_KEY_FAILED = 'Не удалось получить ключ шифрования звонка';

export type SecretCallRef = MachineRef<SecretCallContext, SecretCallEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * dialogs.effects.ts).
 */
export interface SecretCallEffects {
  /** Sends `secretCall.epoch` whenever this device's group reaches a new epoch. */
  watchEpoch: CallbackActorLogic<SecretCallEvent, SecretCallInput>;
  /** The group's current epoch and its call key (MLS exporter, in the crypto worker). */
  derive: PromiseActorLogic<CallKey, SecretCallInput>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretCall: SecretCallRef;
  }
}
