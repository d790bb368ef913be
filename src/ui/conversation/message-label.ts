// What a screen reader says for one message of the timeline (docs/behaviour.md §10.48), composed from the row the
// bubble draws, in the order a listener wants it: who (once per run of one sender's messages), the text, the
// attachments («Фото», «Файл: отчёт.pdf», «Голосовое сообщение, 0:07»), what it answers («Ответ на: …»), the
// reactions, the thread, then the time and, on one's own, how far it got («прочитано»). The bubble's parts stay
// readable one by one (browse mode); this is the message's name as a whole, said when the keyboard lands on it.
import { clock } from '../../contract/format';
import { reactionLabel } from './MessageReactions';
import type { MessageRow } from './view-model';

const DELIVERY = { sending: 'отправляется', sent: null, read: 'прочитано', failed: 'не отправлено' } as const;

/** «3 фото»-free Russian: one picture is «Фото», more «Фото: 3». */
function attachmentParts(row: MessageRow): string[] {
  const parts: string[] = [];
  const images = row.attachments.filter((a) => a.kind === 'IMAGE').length + (row.secretImages?.length ?? 0);
  if (images === 1) parts.push('Фото');
  if (images > 1) parts.push(`Фото: ${images}`);
  for (const a of row.attachments) if (a.kind === 'FILE') parts.push(`Файл: ${a.name}`);
  if (row.voice) parts.push(`Голосовое сообщение, ${clock(row.voice.durationMs)}`);
  if (row.call) parts.push(row.call.label);
  if (row.poll) parts.push(`${row.poll.info.quiz ? 'Викторина' : 'Опрос'}: ${row.poll.info.question}`);
  return parts;
}

/** A part as a sentence: a full stop unless it already ends in one (or «?», «!», «…»). */
const sentence = (part: string) => (/[.!?…]$/.test(part) ? part : `${part}.`);

export function messageLabel(row: MessageRow): string {
  if (row.system) return `${sentence(row.system)} ${row.time}`;
  const text = (row.text || row.secretText || '').replace(/\s+/g, ' ').trim();
  const parts = [
    row.forwardedFrom ? `Переслано: ${row.forwardedFrom}` : '',
    text,
    ...attachmentParts(row),
    row.reply ? `Ответ на: ${row.reply.preview}` : '',
    row.reactions.length > 0 ? `Реакции: ${row.reactions.map(reactionLabel).join('; ')}` : '',
    row.thread?.label ?? '',
    row.edited ? 'изменено' : '',
  ].filter(Boolean);
  const delivery = row.delivery ? DELIVERY[row.delivery] : null;
  const when = delivery ? `${row.time}, ${delivery}` : row.time;
  const body = [...parts.map(sentence), when].join(' ');
  return row.firstInRun ? `${row.own ? 'Вы' : row.senderName}: ${body}` : body;
}
