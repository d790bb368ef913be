// A secret chat's files and voice messages (docs/secret-chats.md, "Files and voice messages"). Going out: the outbox's
// upload seals the file (crypto/file-crypto.ts: a fresh AES-256-GCM key and IV), uploads the ciphertext and keeps
// the key here, in memory, until the message that carries it is sent (a reload loses it: the file is picked again,
// as any upload interrupted by a reload). Coming in: an attachment's ciphertext is fetched with the token and
// opened with the key its envelope carries.
import type { Attachment, VoiceInfo } from '../../contract/entities';
import { SECRET_UPLOAD_URL } from '../../contract/routes';
import type { SecretFileTransfer, UploadOptions } from '../composer/upload';
import { decryptFile, encryptFile, FileDecryptError } from './crypto/file-crypto';
import { type SecretAttachment, secretKindOf } from '../../machines/secretChats/secretChat/secretChat.protocol';

export { secretKindOf };

/** Said on a file message whose keys did not survive a reload (its file must be attached again). */
export const SECRET_FILES_LOST = 'Файл не сохранился после перезагрузки — прикрепите его снова';

const NAME_MAX = 255;
const TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

const keys = new Map<string, SecretAttachment>();

function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return base.slice(0, NAME_MAX) || 'file';
}

/** Seals and uploads one file; answers the attachment the outbox keeps (the key stays here). */
export async function uploadSecretFile(
  transfer: SecretFileTransfer,
  conversationId: string,
  file: Blob & { name?: string },
  options: UploadOptions = {},
): Promise<Attachment> {
  const { ciphertext, key, iv } = await encryptFile(file);
  const { url } = await transfer.upload(new Blob([ciphertext]), conversationId, options);
  const type = TYPE.test(file.type.toLowerCase()) ? file.type.toLowerCase() : 'application/octet-stream';
  const name = cleanName(file.name);
  keys.set(url, { url, key, iv, name, type, size: file.size });
  return { url, type: secretKindOf({ type }), name, size: file.size, width: null, height: null };
}

/** The envelope's attachments for these uploads (a voice message's one with its length and waveform); null when a key is gone. */
export function sealedAttachments(urls: readonly string[], voice?: VoiceInfo | null): SecretAttachment[] | null {
  const out: SecretAttachment[] = [];
  for (const url of urls) {
    const sealed = keys.get(url);
    if (!sealed) return null;
    out.push(voice ? { ...sealed, voice: { durationMs: voice.durationMs, waveform: [...voice.waveform] } } : sealed);
  }
  return out;
}

/** The keys of sent files are the message's now (the device keeps its envelope). */
export function forgetSealed(urls: readonly string[]): void {
  for (const url of urls) keys.delete(url);
}

/** Sign-out: the keys of files uploaded but never sent go with the rest. */
export function forgetAllSealed(): void {
  keys.clear();
}

/**
 * The attachment's bytes: fetched, decrypted, typed for what the bubble does with them — a picture or a voice
 * message as itself, anything else as opaque bytes, so that no object URL of this origin renders a page.
 */
export async function openSecretFile(
  transfer: SecretFileTransfer,
  a: SecretAttachment,
  signal?: AbortSignal,
): Promise<Blob> {
  const key = SECRET_UPLOAD_URL.exec(a.url)?.[1];
  if (!key) throw new FileDecryptError();
  const ciphertext = await transfer.download(`/secret/uploads/${key}`, signal);
  const plain = await decryptFile(ciphertext, a.key, a.iv);
  const kind = secretKindOf(a);
  const type =
    kind === 'IMAGE' || (kind === 'AUDIO' && a.type.startsWith('audio/')) ? a.type : 'application/octet-stream';
  return new Blob([plain], { type });
}

let current: SecretFileTransfer | null = null;
/** The transfer the views' attachments use, set by the wiring with the device actor (which the views need anyway). */
export function setSecretFileTransfer(transfer: SecretFileTransfer): void {
  current = transfer;
}
export function openSecretAttachment(a: SecretAttachment, signal?: AbortSignal): Promise<Blob> {
  if (!current) return Promise.reject(new Error('no secret file transfer'));
  return openSecretFile(current, a, signal);
}
