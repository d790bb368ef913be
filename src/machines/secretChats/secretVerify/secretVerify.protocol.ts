// «Проверить шифрование» (registry line 'secretVerify', owned by its dialog while open): the fingerprint of a secret
// chat's members' keys and each member's devices, as this device's group state has them. Views import this module,
// never secretVerify.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export interface SecretVerifyInput {
  userId: string;
  conversationId: string;
}

/** What the crypto worker answers (crypto/verification.ts's Verification). */
export interface SecretVerification {
  fingerprint: { digits: string[]; emoji: string[] };
  epoch: number;
  members: { userId: string; deviceIds: string[] }[];
  ownDeviceId: string | null;
  /**
   * The safety number with each other person of the chat (docs/secret-chats.md "Identity keys"): 12 groups of 5
   * digits over both identity keys, whether this device marked them verified, and whether their key changed.
   */
  people?: { userId: string; digits: string[]; verified: boolean; changed: boolean }[];
}

/** «Отметить как проверенного» (or undo it), or «Принять новый ключ» for a person whose identity key changed. */
export interface SecretVerifySave {
  personId: string;
  action: 'verify' | 'unverify' | 'acknowledge';
}

export interface SecretVerifyContext extends SecretVerifyInput {
  verification: SecretVerification | null;
  error: string | null;
}

export type SecretVerifyEvent =
  /** The group changed on this device (a new epoch): read the fingerprint again. */
  | { type: 'secretVerify.refresh' }
  | { type: 'secretVerify.retry' }
  | ({ type: 'secretVerify.save' } & SecretVerifySave);

export const SECRET_VERIFY_FAILED = 'Не удалось получить отпечаток ключей';

export type SecretVerifyRef = MachineRef<SecretVerifyContext, SecretVerifyEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * dialogs.effects.ts).
 */
export interface SecretVerifyEffects {
  load: PromiseActorLogic<SecretVerification, SecretVerifyInput>;
  save: PromiseActorLogic<unknown, SecretVerifyInput & SecretVerifySave>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretVerify: SecretVerifyRef;
  }
}
