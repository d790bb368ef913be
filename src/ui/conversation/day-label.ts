// The history's day lines in the reader's own time zone (the browser's): «Сегодня», «Вчера», else «12 ноября»,
// with the year when it is not the current one («3 марта 2024»).
const MONTHS = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];

const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

export function dayLabel(at: Date, now: Date = new Date()): string {
  const today = dayStart(now);
  const day = dayStart(at);
  if (day === today) return 'Сегодня';
  // The day before today's start (DST-safe: a calendar day back, not 24 hours).
  const yesterday = dayStart(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (day === yesterday) return 'Вчера';
  const base = `${at.getDate()} ${MONTHS[at.getMonth()]}`;
  return at.getFullYear() === now.getFullYear() ? base : `${base} ${at.getFullYear()}`;
}

/** «изменено 12 ноября в 14:05» for the edited mark's title. */
export function editedTitle(at: Date, now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `изменено: ${dayLabel(at, now).toLowerCase()} в ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
