// Who may register: «Открытая» lets anyone, «По приглашениям» asks for a code an administrator (or a member, when
// allowed) made, «Закрыта» lets no one. The first account of an empty server always may (it becomes the
// administrator). Codes are counted when used; a registration that fails afterwards gives its use back.
import { randomBytes } from 'node:crypto';
import type { RegistrationInvite } from '../../src/contract/administration';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { Selectable } from 'kysely';
import type { RegistrationInvitesTable } from '../db/schema';
import { forbidden, notFound } from '../http/errors';
import { readSettings } from './server-settings';

export const REGISTRATION_CLOSED = 'Регистрация на этом сервере закрыта. Обратитесь к администратору';
export const INVITE_REQUIRED = 'Регистрация только по приглашениям: введите код приглашения';
export const INVITE_NOT_FOUND = 'Код приглашения не найден';
export const INVITE_REVOKED = 'Код приглашения отозван';
export const INVITE_EXPIRED = 'Срок действия кода приглашения истёк';
export const INVITE_USED_UP = 'Код приглашения уже использован';

type InviteRow = Selectable<RegistrationInvitesTable>;

export function inviteState(r: InviteRow, nowIso: string): RegistrationInvite['state'] {
  if (r.revoked_at) return 'revoked';
  if (r.expires_at && r.expires_at <= nowIso) return 'expired';
  if (r.max_uses !== null && r.uses >= r.max_uses) return 'used';
  return 'active';
}

const REFUSALS: Record<Exclude<RegistrationInvite['state'], 'active'>, string> = {
  revoked: INVITE_REVOKED,
  expired: INVITE_EXPIRED,
  used: INVITE_USED_UP,
};

export function createRegistration(db: Database, clock: Clock) {
  const now = () => new Date(clock.now()).toISOString();

  async function serverIsEmpty(): Promise<boolean> {
    return !(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
  }

  return {
    /**
     * Checks the server lets this registration in and takes one use of its code; returns a function that gives
     * the use back (the registration failed after all).
     */
    async admit(inviteCode: string | undefined): Promise<() => Promise<void>> {
      const nothing = async () => {};
      const { registration } = await readSettings(db);
      if (registration === 'open' || (await serverIsEmpty())) return nothing;
      if (registration === 'closed') throw forbidden(REGISTRATION_CLOSED);
      if (!inviteCode) throw forbidden(INVITE_REQUIRED);
      const at = now();
      const taken = await db
        .updateTable('registration_invites')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('code', '=', inviteCode)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) {
        return async () => {
          await db
            .updateTable('registration_invites')
            .set((eb) => ({ uses: eb('uses', '-', 1) }))
            .where('code', '=', inviteCode)
            .where('uses', '>', 0)
            .execute();
        };
      }
      const row = await db
        .selectFrom('registration_invites')
        .selectAll()
        .where('code', '=', inviteCode)
        .executeTakeFirst();
      const state = row ? inviteState(row, at) : null;
      throw forbidden(state && state !== 'active' ? REFUSALS[state] : INVITE_NOT_FOUND);
    },

    async create(
      by: string | null,
      opts: { expiresInHours?: number | null; maxUses?: number | null; note?: string | null },
    ): Promise<RegistrationInvite> {
      const code = randomBytes(12).toString('base64url');
      await db
        .insertInto('registration_invites')
        .values({
          code,
          created_by: by,
          created_at: now(),
          expires_at: opts.expiresInHours ? new Date(clock.now() + opts.expiresInHours * 3600_000).toISOString() : null,
          max_uses: opts.maxUses ?? null,
          note: opts.note?.trim() || null,
          revoked_at: null,
        })
        .execute();
      return (await this.list(null)).find((i) => i.code === code) as RegistrationInvite;
    },

    /** Every code (administrators) or those `by` made (members), newest first. */
    async list(by: string | null): Promise<RegistrationInvite[]> {
      let q = db
        .selectFrom('registration_invites as i')
        .leftJoin('users as u', 'u.id', 'i.created_by')
        .selectAll('i')
        .select(['u.display_name as creator_name'])
        .orderBy('i.created_at', 'desc')
        .orderBy('i.code')
        .limit(500);
      if (by) q = q.where('i.created_by', '=', by);
      const at = now();
      return (await q.execute()).map((r) => ({
        code: r.code,
        note: r.note,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        maxUses: r.max_uses,
        uses: r.uses,
        state: inviteState(r, at),
        createdBy: r.created_by ? { id: r.created_by, displayName: r.creator_name ?? '' } : null,
      }));
    },

    /** Administrators revoke any code, members their own. */
    async revoke(code: string, by: string | null): Promise<void> {
      let q = db.updateTable('registration_invites').set({ revoked_at: now() }).where('code', '=', code);
      if (by) q = q.where('created_by', '=', by);
      const res = await q.executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw notFound(INVITE_NOT_FOUND);
    },
  };
}

export type Registration = ReturnType<typeof createRegistration>;
