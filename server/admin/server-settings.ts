// The server's own settings (registration mode, members' invites, retention, the directory), kept in the database so every
// process reads the same; read on each use (they are few and rarely asked for).
import type { ServerSettings } from '../../src/contract/administration';
import type { Database } from '../db/database';

export const DEFAULT_SETTINGS: ServerSettings = {
  registration: 'open',
  membersCanInvite: false,
  retentionDays: null,
  directory: false,
  guestLinks: true,
  passwordSignIn: true,
  twoFactorRequired: 'nobody',
};
const KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof ServerSettings)[];

export async function readSettings(db: Database): Promise<ServerSettings> {
  const rows = await db.selectFrom('server_settings').select(['key', 'value']).where('key', 'in', KEYS).execute();
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const r of rows) out[r.key] = JSON.parse(r.value);
  return out as unknown as ServerSettings;
}

export async function writeSettings(db: Database, patch: Partial<ServerSettings>): Promise<ServerSettings> {
  await db.transaction().execute(async (trx) => {
    for (const key of KEYS) {
      if (!(key in patch)) continue;
      const value = JSON.stringify(patch[key] ?? null);
      await trx
        .insertInto('server_settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    }
  });
  return readSettings(db);
}
