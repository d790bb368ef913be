// «Проверить шифрование» (systemId 'secretVerify', owned by its dialog while open): the fingerprint of a secret
// chat's members' keys and each member's devices, as this device's group state has them. Views import this module,
// never secretVerify.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

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
}

export interface SecretVerifyContext extends SecretVerifyInput {
  verification: SecretVerification | null;
  error: string | null;
}

export type SecretVerifyEvent =
  /** The group changed on this device (a new epoch): read the fingerprint again. */
  { type: 'secretVerify.refresh' } | { type: 'secretVerify.retry' };

export const SECRET_VERIFY_FAILED = 'Не удалось получить отпечаток ключей';

export type SecretVerifyRef = MachineRef<SecretVerifyContext, SecretVerifyEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    secretVerify: SecretVerifyRef;
  }
}
