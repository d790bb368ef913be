// A secret chat's history import (docs/behaviour.md §10.39, docs/secret-chats.md): the browser reads the export
// itself (the parsers over a Blob, never the whole file in memory), encrypts every message with the chat's group
// key exactly as a secret send does (files sealed and uploaded as a secret attachment is) and posts them in batches
// to POST /api/imports/secret-batch with their original times. The server stores ciphertext only. Where it stands
// is kept per export in IndexedDB: after a reload, choosing the same file continues after the last stored batch.
import type { ExportFiles, ImportedMessage, ImportSource } from '../../contract/history-import/types';
import { importedAuthorText } from '../../contract/history-import/texts';
import type { SecretImportItem } from '../../contract/history-import/jobs';
import { LIMITS } from '../../contract/limits';
import type { SecretEnvelope } from '../../machines/secretChats/secretChat/secretChat.protocol';
import type { SecretFileTransfer } from '../composer/upload';
import type { SecretCrypto } from '../secretChats/crypto/secret-crypto';
import { forgetSealed, sealedAttachments, uploadSecretFile } from '../secretChats/secret-files';
import type { ImportsApi } from './imports-api';
import type { PositionStore } from './positions';

/** Messages per POST: small enough for the server's body limit, large enough to keep the requests few. */
export const SECRET_BATCH = 50;

export interface SecretImportDeps {
  api: Pick<ImportsApi, 'secretBatch'>;
  crypto: Pick<SecretCrypto, 'encrypt' | 'keepSent' | 'indexMessage'>;
  /** This browser's device in secret chats. */
  deviceId: (userId: string) => Promise<string>;
  transfer: SecretFileTransfer;
  positions: PositionStore;
  /** The parsers, loaded with the import's code. */
  reader: typeof import('../../contract/history-import');
  now?: () => number;
}

export interface SecretExport {
  files: ExportFiles;
  importKey: string;
}

/** Random access to a chosen file: the parsers read a ZIP's directory and entries by offset. */
export function blobSource(blob: Blob) {
  return {
    size: blob.size,
    read: async (offset: number, length: number) =>
      new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  };
}

const EDGE = 64 * 1024;

/**
 * The export's identity: a hash of its size, the chat chosen and its first and last 64 KiB. The same file chosen
 * again (even renamed or downloaded anew) gives the same key; the server ignores what it already has under it.
 */
export async function importKeyOf(file: Blob, chatId: string | null): Promise<string> {
  const head = await file.slice(0, EDGE).arrayBuffer();
  const tail = await file.slice(Math.max(0, file.size - EDGE)).arrayBuffer();
  const label = new TextEncoder().encode(`${file.size}|${chatId ?? ''}|`);
  const all = new Uint8Array(label.length + head.byteLength + tail.byteLength);
  all.set(label, 0);
  all.set(new Uint8Array(head), label.length);
  all.set(new Uint8Array(tail), label.length + head.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function openSecretExport(
  deps: Pick<SecretImportDeps, 'reader'>,
  file: File,
  chatId: string | null,
): Promise<SecretExport> {
  const files = await deps.reader.openExport(blobSource(file), { name: file.name });
  return { files, importKey: await importKeyOf(file, chatId) };
}

/** The export's chats and size, and how much of it this chat already has. */
export async function analyseSecretExport(
  deps: SecretImportDeps,
  input: { file: File; userId: string; conversationId: string; chatId: string | null },
) {
  const { files, importKey } = await openSecretExport(deps, input.file, input.chatId);
  const summary = await deps.reader.analyseExport(files, {
    ...(input.chatId ? { chatId: input.chatId } : {}),
    now: deps.now?.() ?? Date.now(),
  });
  const position = await deps.positions.get(input.userId, input.conversationId, importKey);
  return {
    source: summary.source,
    chats: summary.chats,
    total: summary.messageCount,
    done: Math.min(position?.done ?? 0, summary.messageCount),
  };
}

/** «Ольга (из Telegram)»: who wrote it, since every imported message is the importer's in the group. */
export function importedAuthor(m: ImportedMessage, source: ImportSource): string | null {
  return m.authorKey === null ? null : importedAuthorText(m.authorName, source);
}

/** The text an imported message carries: its author on the first line, then what it said (within the limit). */
export function importedText(m: ImportedMessage, source: ImportSource): string {
  const author = importedAuthor(m, source);
  const body = m.kind === 'placeholder' ? (m.placeholder ?? m.text) : m.text;
  const whole = author ? (body ? `${author}\n${body}` : author) : body || ' ';
  return whole.length > LIMITS.messageTextMax ? `${whole.slice(0, LIMITS.messageTextMax - 1)}…` : whole;
}

async function blobOf(files: ExportFiles, path: string, mime: string | undefined): Promise<Blob> {
  const parts: Uint8Array[] = [];
  for await (const chunk of files.open(path)) parts.push(chunk);
  return new Blob(parts as BlobPart[], mime ? { type: mime } : {});
}

export interface SecretRun {
  file: File;
  userId: string;
  conversationId: string;
  chatId: string | null;
}

export interface SecretProgress {
  done: number;
  total: number;
}

/**
 * Reads, encrypts and posts the export from where it stopped; `onProgress` after each stored batch. Stops between
 * messages when `signal` aborts (what is stored stays; the same file continues later).
 */
export async function runSecretImport(
  deps: SecretImportDeps,
  run: SecretRun,
  onProgress: (p: SecretProgress) => void,
  signal: AbortSignal,
): Promise<SecretProgress> {
  const { files, importKey } = await openSecretExport(deps, run.file, run.chatId);
  const opts = { ...(run.chatId ? { chatId: run.chatId } : {}), now: deps.now?.() ?? Date.now() };
  const summary = await deps.reader.analyseExport(files, opts);
  const total = summary.messageCount;
  const start = (await deps.positions.get(run.userId, run.conversationId, importKey))?.done ?? 0;
  const deviceId = await deps.deviceId(run.userId);
  /** The chat's ids of this run's messages by their export ids: replies point at them. */
  const ids = new Map<string, string>();
  let index = 0;
  let done = Math.min(start, total);
  let batch: Array<{
    item: SecretImportItem;
    envelope: SecretEnvelope;
    epoch: number;
    sourceId: string;
    urls: string[];
  }> = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    const r = await deps.api.secretBatch({
      conversationId: run.conversationId,
      importKey,
      source: summary.source,
      total,
      messages: sent.map((b) => b.item),
    });
    const stored = new Map((r.messages ?? []).map((m) => [m.clientMessageId, m]));
    for (const b of sent) {
      forgetSealed(b.urls);
      const m = stored.get(b.item.clientMessageId);
      if (!m) continue;
      ids.set(b.sourceId, m.id);
      // This device cannot decrypt its own ciphertext: it keeps the text, as after a send, and indexes it.
      await deps.crypto.keepSent(run.userId, {
        messageId: m.id,
        conversationId: run.conversationId,
        senderUserId: run.userId,
        senderDeviceId: deviceId,
        epoch: b.epoch,
        envelope: b.envelope,
      });
      await deps.crypto
        .indexMessage(run.userId, { conversationId: run.conversationId, messageId: m.id, createdAt: m.createdAt })
        .catch(() => undefined);
    }
    done += sent.length;
    await deps.positions.set(run.userId, run.conversationId, importKey, { done, total });
    onProgress({ done, total });
  };

  for await (const m of deps.reader.readExportMessages(files, opts)) {
    if (signal.aborted) break;
    const at = index++;
    if (at < start) continue;
    const envelope: SecretEnvelope = { v: 1, kind: 'text', text: importedText(m, summary.source) };
    const replyTo = m.replyToSourceId ? ids.get(m.replyToSourceId) : undefined;
    if (replyTo) envelope.replyToId = replyTo;
    const urls: string[] = [];
    if (m.media && (m.kind === 'image' || m.kind === 'file' || m.kind === 'voice' || m.kind === 'video')) {
      const blob = await blobOf(files, m.media.path, m.media.mime);
      const named = new File([blob], m.media.name, { type: blob.type });
      const attachment = await uploadSecretFile(deps.transfer, run.conversationId, named);
      urls.push(attachment.url);
      const sealed = sealedAttachments(urls);
      if (sealed) envelope.attachments = sealed;
    }
    const { ciphertext, epoch } = await deps.crypto.encrypt(run.userId, run.conversationId, envelope);
    batch.push({
      sourceId: m.sourceId,
      envelope,
      epoch,
      urls,
      item: {
        sourceId: m.sourceId,
        index: at,
        createdAt: new Date(m.date).toISOString(),
        content: ciphertext,
        // Unique per export and message, within the server's 64 printable characters.
        clientMessageId: `imp-${importKey.slice(0, 24)}-${at}`,
      },
    });
    if (batch.length >= SECRET_BATCH) await flush();
  }
  if (!signal.aborted) await flush();
  return { done, total };
}
