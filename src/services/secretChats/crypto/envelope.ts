// What a secret message's MLS ciphertext carries: a JSON envelope, version 2 (version 1, kept from before, still
// reads: it has no `id`, and the ids it names are the server's). The server never sees it; every
// device parses what it decrypts with parseEnvelope, which refuses anything that is not exactly one of these shapes
// (unknown keys, wrong types, oversized text, a reaction that is not one emoji). No zod: the browser loads none.
import { isSingleEmoji } from '../../../contract/emoji';
import { LIMITS, VOICE } from '../../../contract/limits';
import { SECRET_UPLOAD_URL } from '../../../contract/routes';
import type { SecretAttachment, SecretEnvelope } from '../../../machines/secretChats/secretChat/secretChat.protocol';

/** A file sent in a secret chat: uploaded encrypted (AES-GCM under `key` with `iv`, both base64), then linked. */
export type EnvelopeAttachment = SecretAttachment;
export type Envelope = SecretEnvelope;

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A sender-chosen message id: a UUIDv7 (version nibble 7, RFC 9562 variant). */
export const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const B64 = /^[A-Za-z0-9+/]+={0,2}$/;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function exactKeys(o: Record<string, unknown>, required: string[], optional: string[] = []): void {
  for (const k of required) if (!(k in o)) throw new EnvelopeError(`Нет поля ${k}`);
  for (const k of Object.keys(o))
    if (!required.includes(k) && !optional.includes(k)) throw new EnvelopeError(`Лишнее поле ${k}`);
}
function id(x: unknown, what: string): string {
  if (typeof x !== 'string' || !ID.test(x)) throw new EnvelopeError(`${what}: ожидается идентификатор`);
  return x;
}
function text(x: unknown, allowEmpty: boolean): string {
  if (typeof x !== 'string') throw new EnvelopeError('Текст должен быть строкой');
  if (x.length > LIMITS.messageTextMax) throw new EnvelopeError('Текст слишком длинный');
  if (!allowEmpty && x.trim() === '') throw new EnvelopeError('Пустой текст');
  return x;
}
function str(x: unknown, what: string, max: number, re?: RegExp): string {
  if (typeof x !== 'string' || x.length === 0 || x.length > max || (re && !re.test(x)))
    throw new EnvelopeError(`${what}: недопустимое значение`);
  return x;
}
const int = (x: unknown, min: number, max: number): x is number =>
  typeof x === 'number' && Number.isSafeInteger(x) && x >= min && x <= max;
function voice(x: unknown): NonNullable<EnvelopeAttachment['voice']> {
  if (!isObject(x)) throw new EnvelopeError('Голосовое сообщение: ожидается объект');
  exactKeys(x, ['durationMs', 'waveform']);
  if (!int(x.durationMs, VOICE.minDurationMs, VOICE.maxDurationMs))
    throw new EnvelopeError('Голосовое сообщение: недопустимая длительность');
  const { waveform } = x;
  if (
    !Array.isArray(waveform) ||
    waveform.length === 0 ||
    waveform.length > VOICE.waveformMax ||
    !waveform.every((p) => int(p, 0, VOICE.peakMax))
  )
    throw new EnvelopeError('Голосовое сообщение: недопустимая волна');
  return { durationMs: x.durationMs, waveform: [...(waveform as number[])] };
}
function attachment(x: unknown): EnvelopeAttachment {
  if (!isObject(x)) throw new EnvelopeError('Вложение: ожидается объект');
  exactKeys(x, ['url', 'key', 'iv', 'name', 'type', 'size'], ['voice']);
  if (typeof x.size !== 'number' || !Number.isSafeInteger(x.size) || x.size < 0)
    throw new EnvelopeError('Вложение: размер — целое неотрицательное число');
  // Only an encrypted upload of this server: a device fetches it with its own token, so nothing else may be named.
  const url = str(x.url, 'Адрес вложения', 2048);
  if (!SECRET_UPLOAD_URL.test(url)) throw new EnvelopeError('Адрес вложения: только файлы этого сервера');
  return {
    url,
    key: str(x.key, 'Ключ вложения', 64, B64),
    iv: str(x.iv, 'IV вложения', 32, B64),
    name: str(x.name, 'Имя вложения', 255),
    type: str(x.type, 'Тип вложения', 255),
    size: x.size,
    ...(x.voice !== undefined ? { voice: voice(x.voice) } : {}),
  };
}

/** The envelope in a decrypted payload (UTF-8 JSON), or EnvelopeError. */
/** A text's or a copy's content: its attachments, its text (empty only beside attachments) and what it replies to. */
function withContent<E extends Extract<Envelope, { kind: 'text' | 'copy' }>>(out: E, raw: Record<string, unknown>): E {
  if (raw.attachments !== undefined) {
    if (
      !Array.isArray(raw.attachments) ||
      raw.attachments.length === 0 ||
      raw.attachments.length > LIMITS.attachmentsMax
    )
      throw new EnvelopeError(`Вложений — от 1 до ${LIMITS.attachmentsMax}`);
    out.attachments = raw.attachments.map(attachment);
  }
  out.text = text(raw.text, out.attachments !== undefined);
  if (raw.replyToId !== undefined) out.replyToId = id(raw.replyToId, 'Ответ');
  return out;
}

export function parseEnvelope(payload: Uint8Array | string): Envelope {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    throw new EnvelopeError('Сообщение не читается');
  }
  if (!isObject(raw) || (raw.v !== 1 && raw.v !== 2)) throw new EnvelopeError('Неизвестная версия сообщения');
  const v = raw.v;
  // Version 2: the message's own id, chosen by its sender; version 1 has none.
  const head: { v: 1 | 2; id?: string } =
    v === 2 ? { v, id: str(raw.id, 'Идентификатор сообщения', 36, MESSAGE_ID) } : { v };
  const own = v === 2 ? ['id'] : [];
  switch (raw.kind) {
    case 'text': {
      exactKeys(raw, ['v', 'kind', 'text', ...own], ['replyToId', 'attachments']);
      return withContent({ ...head, kind: 'text', text: '' }, raw);
    }
    case 'copy': {
      exactKeys(raw, ['v', 'kind', 'targetId', 'text', ...own], ['replyToId', 'attachments']);
      return withContent({ ...head, kind: 'copy', targetId: id(raw.targetId, 'Сообщение'), text: '' }, raw);
    }
    case 'edit':
      exactKeys(raw, ['v', 'kind', 'targetId', 'text', ...own]);
      return { ...head, kind: 'edit', targetId: id(raw.targetId, 'Сообщение'), text: text(raw.text, false) };
    case 'reaction':
      exactKeys(raw, ['v', 'kind', 'targetId', 'emoji', ...own]);
      if (typeof raw.emoji !== 'string' || !isSingleEmoji(raw.emoji)) throw new EnvelopeError('Реакция — один эмодзи');
      return { ...head, kind: 'reaction', targetId: id(raw.targetId, 'Сообщение'), emoji: raw.emoji };
    case 'delete':
      exactKeys(raw, ['v', 'kind', 'targetId', ...own]);
      return { ...head, kind: 'delete', targetId: id(raw.targetId, 'Сообщение') };
    default:
      throw new EnvelopeError('Неизвестный вид сообщения');
  }
}

/** The payload to encrypt (checked by the same parser, so a device never sends what others would refuse). */
export function serializeEnvelope(envelope: Envelope): Uint8Array {
  const json = JSON.stringify(envelope);
  parseEnvelope(json);
  return new TextEncoder().encode(json);
}

/** The id others name a kept message by: its sender's (version 2), or the server's (version 1). */
export const idOf = (kept: { messageId: string; envelope: { id?: string } }) => kept.envelope.id ?? kept.messageId;
