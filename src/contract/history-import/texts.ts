// The words the server writes into an imported history and the client shows around it (docs/behaviour.md §10.38).
import type { ImportSource } from './types';

export const SOURCE_NAMES: Record<ImportSource, string> = { telegram: 'Telegram', whatsapp: 'WhatsApp' };
/** The products' names stay as they are after «из» (they are not declined). */
const FROM_SOURCE: Record<ImportSource, string> = { telegram: 'из Telegram', whatsapp: 'из WhatsApp' };

/** «12 345»: digits in threes with a no-break space, as Russian writes numbers (and the line never breaks inside). */
export function groupedNumber(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
}

/** «1 сообщение», «3 сообщения», «12 345 сообщений». */
export function messagesText(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word =
    tens >= 11 && tens <= 14
      ? 'сообщений'
      : ones === 1
        ? 'сообщение'
        : ones >= 2 && ones <= 4
          ? 'сообщения'
          : 'сообщений';
  return `${groupedNumber(n)} ${word}`;
}

/** The divider after an imported history: «Импортировано из Telegram · 12 345 сообщений». */
export const importDividerText = (source: ImportSource, count: number) =>
  `Импортировано ${FROM_SOURCE[source]} · ${messagesText(count)}`;

/** An imported author matched to nobody here: «Ольга (из Telegram)» (the name stays as written). */
export const importedAuthorText = (name: string, source: ImportSource) => `${name} (${FROM_SOURCE[source]})`;

/** The job's progress: «Импорт: 4 200 из 12 345». */
export const importProgressText = (done: number, total: number) =>
  `Импорт: ${groupedNumber(done)} из ${groupedNumber(total)}`;
