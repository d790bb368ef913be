// The crypto service's identity-key calls (docs/secret-chats.md "Identity keys"), implemented in the worker by
// identity-core.ts. Types and names only: the page loads no cryptography from here.

/** A person's identity key as the server lists it (SecretIdentity of src/contract/secret-identity.ts, the fields used). */
export interface IdentitySeen {
  userId: string;
  publicKey: string;
  version: number;
}

/** What «Проверить шифрование» shows for one other person. */
export interface SafetyNumber {
  userId: string;
  /** 12 groups of 5 digits over both people's identity keys. */
  digits: string[];
  /** «Отметить как проверенного» on this device, for this identity key. */
  verified: boolean;
  /** The person's identity key changed since it was pinned, and the change is not acknowledged yet. */
  changed: boolean;
}

export interface IdentityCrypto {
  /** The identity public key (base64) this device holds for its person, or null. */
  identityStatus(userId: string): Promise<{ publicKey: string | null }>;
  /** A new identity key for a person who has none (their first device): its public part for the server. */
  identityCreate(userId: string): Promise<{ publicKey: string }>;
  /** This device's signature key signed by the identity key it holds (what registration carries). */
  deviceProof(userId: string): Promise<{ signatureKey: string; identitySignature: string }>;
  /** A new device's request for the identity key: its keys and the short code both devices show. */
  approvalRequest(userId: string): Promise<{ deviceKey: string; exchangeKey: string; code: string }>;
  /** The old device's answer, opened and checked against the server's identity key; false when it does not hold. */
  approvalAccept(
    userId: string,
    answer: { signature: string; sealed: string },
    identityPublicKey: string,
  ): Promise<boolean>;
  /** On the old device: the code of a request, as the new device shows it. */
  approvalCode(deviceKey: string, exchangeKey: string): Promise<string>;
  /** On the old device: the new device signed and the identity key sealed to it. */
  approve(
    userId: string,
    request: { deviceKey: string; exchangeKey: string },
  ): Promise<{ signature: string; sealed: string }>;
  /**
   * The identity keys the server lists: a person met for the first time is pinned; one whose key differs from the
   * pin is `changed` (the pin stays until the change is acknowledged).
   */
  identitiesSeen(userId: string, identities: IdentitySeen[]): Promise<{ changed: string[] }>;
  /** People whose identity key changed and whose change is not acknowledged. */
  identityChanges(userId: string): Promise<string[]>;
  /** The change is seen: the new key becomes the pin (and the person is no longer marked verified). */
  identityAcknowledge(userId: string, personId: string): Promise<void>;
  /** «Отметить как проверенного» (or undo it), kept on this device. */
  identityVerify(userId: string, personId: string, verified: boolean): Promise<void>;
  /** The safety number of this person and another; null when either identity key is unknown here. */
  safetyNumber(userId: string, personId: string): Promise<SafetyNumber | null>;
  /** The chat's members as the server lists them: leaves of anyone else are refused. */
  setMembers(userId: string, conversationId: string, memberIds: string[]): Promise<void>;
}

export const IDENTITY_METHODS: (keyof IdentityCrypto)[] = [
  'identityStatus',
  'identityCreate',
  'deviceProof',
  'approvalRequest',
  'approvalAccept',
  'approvalCode',
  'approve',
  'identitiesSeen',
  'identityChanges',
  'identityAcknowledge',
  'identityVerify',
  'safetyNumber',
  'setMembers',
];
