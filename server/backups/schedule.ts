// When the server backs itself up and which of its backups it keeps (docs/administration.md «Резервные копии по
// расписанию»). BACKUP_SCHEDULE is a daily time on the server's local clock ("03:30") or "off"; BACKUP_KEEP is
// "<N>d,<M>w": the newest backup of each of the last N calendar days and of each of the last M ISO weeks (Monday
// to Sunday, local time) is kept, every other scheduled backup deleted. Pure functions of the time handed in.
import { ConfigError } from '../config-error';
import path from 'node:path';

/** DATA_DIR/backups: the scheduled backups on disk, the copies taken before upgrades and the dumps they look for. */
export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');

/** Every day at hour:minute, server local time. */
export interface BackupSchedule {
  hour: number;
  minute: number;
}

export interface KeepRule {
  days: number;
  weeks: number;
}

export const DEFAULT_BACKUP_SCHEDULE = '03:30';
export const DEFAULT_BACKUP_KEEP = '7d,4w';

export function parseSchedule(v: string | null): BackupSchedule | null {
  const s = (v ?? DEFAULT_BACKUP_SCHEDULE).trim().toLowerCase();
  if (['off', 'no', 'false', '0', 'none'].includes(s)) return null;
  const m = /^(\d{1,2}):(\d{2})$/.exec(s);
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) {
    throw new ConfigError(`Неверное значение BACKUP_SCHEDULE: «${v}». Укажите время ЧЧ:ММ (например 03:30) или off`);
  }
  return { hour, minute };
}

export function parseKeep(v: string | null): KeepRule {
  const s = (v ?? DEFAULT_BACKUP_KEEP).trim().toLowerCase();
  const rule: KeepRule = { days: 0, weeks: 0 };
  const parts = s.split(/[\s,]+/).filter(Boolean);
  const seen = new Set<string>();
  for (const part of parts) {
    const m = /^(\d{1,4})([dw])$/.exec(part);
    if (!m || seen.has(m[2] as string)) {
      throw new ConfigError(`Неверное значение BACKUP_KEEP: «${v}». Укажите, например, 7d,4w (дни и недели)`);
    }
    seen.add(m[2] as string);
    if (m[2] === 'd') rule.days = Number(m[1]);
    else rule.weeks = Number(m[1]);
  }
  if (parts.length === 0) throw new ConfigError('BACKUP_KEEP пуст: укажите, например, 7d,4w');
  return rule;
}

const two = (n: number) => String(n).padStart(2, '0');

export function describeSchedule(s: BackupSchedule | null): string | null {
  return s ? `каждый день в ${two(s.hour)}:${two(s.minute)}` : null;
}

/** The latest scheduled moment at or before `now`. */
export function lastSlot(now: number, s: BackupSchedule): number {
  const d = new Date(now);
  d.setHours(s.hour, s.minute, 0, 0);
  if (d.getTime() > now) d.setDate(d.getDate() - 1);
  return d.getTime();
}

/** The first scheduled moment after `now`. */
export function nextSlot(now: number, s: BackupSchedule): number {
  const d = new Date(lastSlot(now, s));
  d.setDate(d.getDate() + 1);
  d.setHours(s.hour, s.minute, 0, 0);
  return d.getTime();
}

const PREFIX = 'beseda-backup-';
const SUFFIX = '.tar.gz';

/** The name of a scheduled backup made for `at`: its UTC time, so names sort as times do. */
export function backupName(at: number): string {
  const stamp = new Date(at)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return `${PREFIX}${stamp}${SUFFIX}`;
}

/** The PostgreSQL dump made with the archive `name` (pg_dump's custom format), beside it. */
export const dumpName = (name: string) => name.replace(/\.tar\.gz$/, '.dump');

/**
 * The time a scheduled backup's name (its archive or, on PostgreSQL, its dump) holds, or null for any other name
 * (which pruning never touches).
 */
export function backupTime(name: string): number | null {
  const m = /^beseda-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.(tar\.gz|dump)$/.exec(name);
  if (!m) return null;
  const at = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return Number.isNaN(at) ? null : at;
}

const dayKey = (d: Date) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;

/** ISO 8601 week of the local date: the week's Thursday decides the year. */
export function isoWeekKey(d: Date): string {
  const t = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const weekday = (t.getDay() + 6) % 7; // Monday 0 … Sunday 6
  t.setDate(t.getDate() - weekday + 3);
  const year = t.getFullYear();
  const firstThursday = new Date(year, 0, 4);
  firstThursday.setDate(firstThursday.getDate() - ((firstThursday.getDay() + 6) % 7) + 3);
  const week = 1 + Math.round((t.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${two(week)}`;
}

/**
 * The names to keep of the scheduled backups `names`, at `now`: the newest of each of the last `days` local days
 * and of the last `weeks` ISO weeks, `justMade` whatever the rule says, and any dated after `now` (a clock that
 * was ahead). Names that are not scheduled backups are never in `names`' verdict: the caller leaves them alone.
 */
export function backupsToKeep(names: string[], rule: KeepRule, now: number, justMade: string | null): Set<string> {
  // By time: an archive and its dump are one backup.
  const dated = [...new Set(names.map(backupTime).filter((at): at is number => at !== null))]
    .map((at) => ({ at }))
    .sort((a, b) => b.at - a.at);
  const keepAt = new Set<number>();
  const made = justMade === null ? null : backupTime(justMade);
  if (made !== null) keepAt.add(made);
  const today = new Date(now);
  const days = new Set<string>();
  for (let i = 0; i < rule.days; i++) {
    days.add(dayKey(new Date(today.getFullYear(), today.getMonth(), today.getDate() - i)));
  }
  const weeks = new Set<string>();
  for (let i = 0; i < rule.weeks; i++) {
    weeks.add(isoWeekKey(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 7 * i)));
  }
  const dayTaken = new Set<string>();
  const weekTaken = new Set<string>();
  for (const b of dated) {
    if (b.at > now) {
      keepAt.add(b.at);
      continue;
    }
    const d = new Date(b.at);
    const day = dayKey(d);
    const week = isoWeekKey(d);
    if (days.has(day) && !dayTaken.has(day)) {
      dayTaken.add(day);
      keepAt.add(b.at);
    }
    if (weeks.has(week) && !weekTaken.has(week)) {
      weekTaken.add(week);
      keepAt.add(b.at);
    }
  }
  const keep = new Set(names.filter((name) => keepAt.has(backupTime(name) as number)));
  if (justMade) keep.add(justMade);
  return keep;
}

/** The copies server/db/upgrade.ts takes before migrating: the newest PRE_UPGRADE_KEEP are kept. */
export const PRE_UPGRADE_KEEP = 3;
export const isPreUpgradeCopy = (name: string) => /^before-upgrade-.*\.sqlite$/.test(name);

/** No scheduled backups: every server the tests and benchmarks start (their data directories are thrown away). */
export const BACKUPS_OFF: { schedule: BackupSchedule | null; keep: KeepRule } = {
  schedule: null,
  keep: { days: 7, weeks: 4 },
};
