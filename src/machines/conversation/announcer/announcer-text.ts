// What the announcer says (docs/behaviour.md §10.48), as plain functions of what happened.
import { newMessagesPhrase } from '../../../contract/notification';
import type { Heard, UploadPhase } from './announcer.protocol';

/**
 * One message: «Анна: привет»; several from one person: «Анна: 5 новых сообщений»; from several: «5 новых сообщений».
 * The name stays in the nominative, before a colon (docs/behaviour.md, Conventions).
 */
export function burstText(burst: readonly Heard[]): string {
  const [first] = burst;
  if (!first) return '';
  if (burst.length === 1) return `${first.senderName}: ${first.preview}`;
  const one = burst.every((m) => m.senderId === first.senderId);
  return one ? `${first.senderName}: ${newMessagesPhrase(burst.length)}` : newMessagesPhrase(burst.length);
}

export const typingAnnouncement = (name: string) => `${name} печатает`;

/** Matches the incoming-call dialog: Enter on it answers, Escape declines. */
export const callAnnouncement = (name: string, video: boolean) =>
  `Входящий ${video ? 'видеозвонок' : 'звонок'}: ${name}. Ответить — Enter, отклонить — Escape`;

/** «Загрузка файла «отчёт.pdf»», «Файлы загружены: 3», «Файл «отчёт.pdf» не загрузился». */
export function uploadText(phase: UploadPhase, names: readonly string[]): string {
  const one = names.length === 1 ? `«${names[0]}»` : null;
  if (phase === 'started') return one ? `Загрузка файла ${one}` : `Загрузка файлов: ${names.length}`;
  if (phase === 'done') return one ? `Файл ${one} загружен` : `Файлы загружены: ${names.length}`;
  return one ? `Файл ${one} не загрузился` : `Файлы не загрузились: ${names.length}`;
}
