// One's own status (docs/behaviour.md §10.44): an emoji and a short text, shown beside the name and kept apart from
// presence, with «Сбросить через». No zod here: the client's first bundle reads the labels and the shape.

/** The longest text of a status. */
export const CUSTOM_STATUS_TEXT_MAX = 80;

/** «Сбросить через»: the only choices the server accepts. */
export const CLEAR_AFTER = ['30m', '1h', '4h', 'today', 'week', 'never'] as const;
export type ClearAfter = (typeof CLEAR_AFTER)[number];

export const CLEAR_AFTER_LABELS: Record<ClearAfter, string> = {
  '30m': '30 минут',
  '1h': '1 час',
  '4h': '4 часа',
  today: 'Сегодня',
  week: 'Неделю',
  never: 'Не сбрасывать',
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SPANS: Partial<Record<ClearAfter, number>> = {
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  week: 7 * DAY,
};

/**
 * When a status chosen at `now` is cleared (ms), or null for «Не сбрасывать». «Сегодня» ends at the chooser's own
 * midnight: `offsetMinutes` is their Date#getTimezoneOffset() (UTC minus local time).
 */
export function clearsAt(choice: ClearAfter, now: number, offsetMinutes = 0): number | null {
  if (choice === 'never') return null;
  if (choice === 'today') {
    const local = now - offsetMinutes * MINUTE;
    return Math.floor(local / DAY) * DAY + DAY + offsetMinutes * MINUTE;
  }
  return now + (SPANS[choice] ?? 0);
}

export interface CustomStatusView {
  emoji: string;
  text: string;
}

/** The status as one line («🌴 В отпуске»), or '' for none. */
export const customStatusLine = (s: CustomStatusView | null | undefined) =>
  s ? [s.emoji, s.text].filter(Boolean).join(' ') : '';
