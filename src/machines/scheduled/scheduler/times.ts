// The times «Отправить позже» and «Напомнить» offer (docs/behaviour.md §10.32), in the browser's time zone: pure, so
// each rule is tested on its own.

export interface TimeChoice {
  label: string;
  at: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

function tomorrowAtNine(now: Date): Date {
  const d = new Date(now);
  d.setDate(d.getDate() + 1);
  d.setHours(9, 0, 0, 0);
  return d;
}

/** «Сегодня в …» (the next round hour, while it is still today) and «Завтра в 9:00». */
export function sendLaterChoices(now: Date): TimeChoice[] {
  const choices: TimeChoice[] = [];
  const next = new Date(now);
  next.setHours(now.getHours() + 1, 0, 0, 0);
  if (next.getDate() === now.getDate()) {
    choices.push({ label: `Сегодня в ${next.getHours()}:${pad(next.getMinutes())}`, at: next.toISOString() });
  }
  choices.push({ label: 'Завтра в 9:00', at: tomorrowAtNine(now).toISOString() });
  return choices;
}

/** «Через 20 минут», «Через час», «Завтра в 9:00». */
export function reminderChoices(now: Date): TimeChoice[] {
  return [
    { label: 'Через 20 минут', at: new Date(now.getTime() + 20 * 60_000).toISOString() },
    { label: 'Через час', at: new Date(now.getTime() + 3600_000).toISOString() },
    { label: 'Завтра в 9:00', at: tomorrowAtNine(now).toISOString() },
  ];
}

/** A `datetime-local` field's value (local time) as ISO, or null when it is not a time. */
export function fromLocalInput(value: string): string | null {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** How a time reads in «Запланированные»: «27.11 в 9:00». */
export function scheduledLabel(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)} в ${d.getHours()}:${pad(d.getMinutes())}`;
}
