// What a VOICE send must satisfy beyond its schema (src/contract/entities.ts VoiceInfo): exactly one attachment,
// an upload sniffed as audio (server/uploads/audio.ts), within VOICE.maxBytes, and a duration that fits the
// file — the average bitrate it implies must be one an Opus or AAC recording can have.
import { VOICE } from '../../src/contract/limits';
import type { SendBody } from '../../src/contract/api';
import type { z } from 'zod';
import { badRequest } from '../http/errors';

export function checkVoice(body: z.output<typeof SendBody>, uploads: { kind: string; size: number }[]): void {
  const voice = body.voice;
  if (!voice) throw badRequest('Голосовому сообщению нужны длительность и волна');
  if (uploads.length !== 1) throw badRequest('Голосовое сообщение — ровно одна аудиозапись');
  const [upload] = uploads;
  if (upload.kind !== 'AUDIO') throw badRequest('Вложение голосового сообщения не является аудиозаписью');
  const size = Number(upload.size);
  if (size > VOICE.maxBytes)
    throw badRequest(`Голосовое сообщение слишком большое: не больше ${VOICE.maxBytes / (1024 * 1024)} МБ`);
  const seconds = voice.durationMs / 1000;
  if (size < seconds * VOICE.minBytesPerSec || size > seconds * VOICE.maxBytesPerSec + VOICE.headerSlackBytes) {
    throw badRequest('Длительность не соответствует аудиофайлу');
  }
}
