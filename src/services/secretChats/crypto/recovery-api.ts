// The crypto service's recovery-key calls (docs/secret-chats.md "The recovery key"), implemented in the worker by
// recovery-core.ts. Types and names only: the page loads no cryptography from here.

/** What the server keeps of a recovery key (BackupInfo of src/contract/secret-backup.ts, the fields used). */
export interface RecoveryKeyInfo {
  version: number;
  salt: string;
  iterations: number;
  check: string;
}

/** A chunk of the backup as the server stores it (BackupChunk of src/contract/secret-backup.ts). */
export interface BackupChunkItem {
  seq: number;
  version: number;
  conversationId: string | null;
  entries: string;
}

export interface RecoveryCrypto {
  /** The recovery key's version this device backs up with, or null when it has none. */
  recoveryStatus(userId: string): Promise<{ version: number } | null>;
  /** A new phrase and its key (held in the worker until recoveryConfirm): what POST /api/secret/backup/key takes. */
  recoveryCreate(userId: string): Promise<{ phrase: string; salt: string; iterations: number; check: string }>;
  /** The server took the new key as `version`: this device keeps it and queues every kept plaintext. */
  recoveryConfirm(userId: string, version: number): Promise<void>;
  /** Derives the key of a typed phrase and checks it (a wrong one: `badKey`, «Неверный ключ восстановления»). */
  recoveryOpen(userId: string, phrase: string, info: RecoveryKeyInfo): Promise<void>;
  /** Decrypts every chunk with the opened key, then keeps the plaintexts this device lacks (all or nothing). */
  recoveryRestore(userId: string, chunks: BackupChunkItem[]): Promise<{ restored: number }>;
  /** The next chunk of queued plaintexts to upload, sealed, or null when none waits. */
  backupNext(
    userId: string,
  ): Promise<{ version: number; conversationId: string; entries: string; messageIds: string[] } | null>;
  /** Those were uploaded: out of the queue. */
  backupDone(userId: string, conversationId: string, messageIds: string[]): Promise<void>;
  /** This device stops backing up (the key was deleted or replaced). */
  recoveryForget(userId: string): Promise<void>;
  /**
   * With the key recoveryOpen opened: the backup's newest identity chunk (of no conversation), refused when it does
   * not open or is not `identityPublicKey` (the server's); else this device keeps it, pins it and is signed by it.
   * False when the backup holds no identity key.
   */
  recoveryIdentity(userId: string, chunks: BackupChunkItem[], identityPublicKey: string): Promise<boolean>;
  /** The identity key this device holds, sealed for the backup, when the backup lacks it (else null). */
  backupIdentity(userId: string): Promise<{ version: number; entries: string; publicKey: string } | null>;
  /** That identity chunk was uploaded. */
  backupIdentityDone(userId: string, version: number, publicKey: string): Promise<void>;
}

export const RECOVERY_METHODS: (keyof RecoveryCrypto)[] = [
  'recoveryStatus',
  'recoveryCreate',
  'recoveryConfirm',
  'recoveryOpen',
  'recoveryRestore',
  'backupNext',
  'backupDone',
  'recoveryForget',
  'recoveryIdentity',
  'backupIdentity',
  'backupIdentityDone',
];
