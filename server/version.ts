// The two versions an operator names: the release (package.json `version`) and the schema (the number of the
// latest migration this release knows, «037»). `npm run admin -- version`, /api/health/ready and «Администрирование»
// show both.
import fs from 'node:fs';

export const RELEASE_VERSION: string = JSON.parse(
  fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

/** '037_guest_links' → '037'; a name without a number stays as it is. */
export function schemaNumber(migration: string | null): string | null {
  if (migration === null) return null;
  return /^(\d+)/.exec(migration)?.[1] ?? migration;
}

/** The latest of migration names (they sort by their number prefix). */
export function latestMigration(names: Iterable<string>): string | null {
  let last: string | null = null;
  for (const n of names) if (last === null || n > last) last = n;
  return last;
}

/** «Версия: 0.1.0 · схема 037», as the console and the shell say it. */
export function describeVersion(release: string, schema: string | null): string {
  return `Версия: ${release} · схема ${schema ?? '—'}`;
}
