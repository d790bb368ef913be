// A day as the user's calendar has it («Перейти к дате», the search's «Дата» filter): `YYYY-MM-DD` with the
// browser's offset from UTC in minutes (east positive, the opposite of Date#getTimezoneOffset), so the server finds
// where that day starts without knowing the user's zone.
// No zod here: the browser imports this module (the schemas are in api/search.ts).

/** The kinds of message the search's «Тип» filter narrows to. */
export const SEARCH_KINDS = ['photo', 'file', 'link', 'voice'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Real offsets run from UTC−12 to UTC+14. */
export const TZ_OFFSET_MIN = -12 * 60;
export const TZ_OFFSET_MAX = 14 * 60;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight of `day` in the zone `offset` minutes east of UTC, in ms since the epoch; null for no such day. */
export function dayStartMs(day: string, offset: number): number | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(y, mo - 1, d);
  const back = new Date(utc);
  // 2026-02-30 rolls over into March: not a day.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || y < 1970) return null;
  return utc - offset * 60_000;
}

/** The browser's offset for a day (east positive), as the routes take it. */
export const localTzOffset = (at: Date = new Date()) => -at.getTimezoneOffset();

/** `YYYY-MM-DD` of a local date. */
export const localDay = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
