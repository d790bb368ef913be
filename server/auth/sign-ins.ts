// Sign-ins (the refresh-token families) as the user manages them: recorded at sign-in with the browser and system
// read from the user agent (ua-parser-js), touched at each refresh (inside the rotation, refresh-tokens.ts), and
// ended — by signing out, from «Устройства», by a password change, or by lapsing (`endLapsed`, hourly) — in one
// way: its access tokens refused at once on every process (ended-sessions.ts), its row gone, its refresh tokens
// revoked, its sockets closed everywhere, its push subscriptions deleted, and whatever else it held told (`onEnded`:
// its secret-chat device is revoked).
import fp from 'fastify-plugin';
import { UAParser } from 'ua-parser-js';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import type { PushNotifier } from '../push/push.plugin';
import type { SessionSockets } from '../realtime/socket-sessions';
import type { EndedSessions } from './ended-sessions';
import { revokeFamily } from './refresh-tokens';

/** «Chrome 130», «Linux»: what the list shows; null when the user agent says nothing recognisable. */
export function describeUserAgent(userAgent: string | undefined): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  const { browser, os } = new UAParser(userAgent.slice(0, 512)).getResult();
  const named = (name?: string, version?: string) => (name ? (version ? `${name} ${version}` : name) : null);
  return { browser: named(browser.name, browser.major), os: named(os.name, os.version) };
}

export interface SignInDeps {
  db: Database;
  clock: Clock;
  endedSessions: EndedSessions;
  sessions: SessionSockets;
  push: Pick<PushNotifier, 'signedOut'>;
}

/** Told when a sign-in has ended (after its tokens, sockets and push subscriptions): what else it held goes too. */
export type SignInEnded = (id: string) => Promise<void>;

export function createSignIns({ db, clock, endedSessions, sessions, push }: SignInDeps) {
  const now = () => new Date(clock.now()).toISOString();
  const listeners: SignInEnded[] = [];
  const signIns = {
    /** Adds a listener of endings (a secret-chat device is revoked with its sign-in: server/secret/). */
    onEnded(listener: SignInEnded): void {
      listeners.push(listener);
    },

    /** `passkeyId`: the passkey that signed it in, if one did («Устройства» names it). */
    async record(id: string, userId: string, userAgent: string | undefined, passkeyId: string | null = null) {
      const at = now();
      await db
        .insertInto('sign_ins')
        .values({
          id,
          user_id: userId,
          ...describeUserAgent(userAgent),
          created_at: at,
          last_active_at: at,
          passkey_id: passkeyId,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },

    /** The user's live sign-ins, most recently used first. */
    list(userId: string) {
      return db
        .selectFrom('sign_ins')
        .leftJoin('passkeys', 'passkeys.id', 'sign_ins.passkey_id')
        .selectAll('sign_ins')
        .select('passkeys.name as passkey_name')
        .where('sign_ins.user_id', '=', userId)
        .orderBy('sign_ins.last_active_at', 'desc')
        .orderBy('sign_ins.id')
        .execute();
    },

    /**
     * Ends the sign-ins whose refresh tokens have all lapsed (unused for the token's lifetime, or past the family's
     * absolute one): nobody can use them again, so «Устройства» stops listing them and what they held goes too.
     * One just recorded is left alone: its first token may not be written yet.
     */
    async endLapsed(): Promise<number> {
      const at = now();
      const settled = new Date(clock.now() - 60_000).toISOString();
      const lapsed = await db
        .selectFrom('sign_ins as s')
        .select('s.id')
        .where('s.created_at', '<', settled)
        .where(({ exists, not, selectFrom }) =>
          not(
            exists(
              selectFrom('refresh_tokens as t')
                .select('t.id')
                .whereRef('t.family_id', '=', 's.id')
                .where('t.revoked_at', 'is', null)
                .where('t.expires_at', '>', at),
            ),
          ),
        )
        .execute();
      for (const { id } of lapsed) await signIns.end(id);
      return lapsed.length;
    },

    /**
     * Ends every sign-in of the user but `keep`: those listed, and any family of theirs with a live refresh token
     * whose row is already gone (a password change, a reset, deactivation, deletion: docs/accounts.md).
     */
    async endAllBut(userId: string, keep: string | null, reason: 'logout' | 'deactivated' = 'logout'): Promise<void> {
      const listed = (await signIns.list(userId)).map((r) => r.id);
      const live = await db
        .selectFrom('refresh_tokens')
        .select('family_id')
        .distinct()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      for (const id of new Set([...listed, ...live.map((r) => r.family_id)])) {
        if (id !== keep) await signIns.end(id, reason);
      }
    },

    /**
     * Ends the sign-ins whose row is gone while refresh tokens of theirs are still live (left by the race fixed in
     * refresh-tokens.ts; rotation refuses them anyway): tokens revoked, access tokens refused, sockets closed. A token
     * made within the last minute is left alone: sign-in writes its token just before its row.
     */
    async revokeOrphans(): Promise<number> {
      const settled = new Date(clock.now() - 60_000).toISOString();
      const orphans = await db
        .selectFrom('refresh_tokens as t')
        .select('t.family_id')
        .distinct()
        .where('t.revoked_at', 'is', null)
        .where('t.created_at', '<', settled)
        .where(({ exists, not, selectFrom }) =>
          not(exists(selectFrom('sign_ins as s').select('s.id').whereRef('s.id', '=', 't.family_id'))),
        )
        .execute();
      for (const { family_id } of orphans) await signIns.end(family_id);
      return orphans.length;
    },

    /** Ends a sign-in everywhere (its refresh family may already be revoked: a sign-out, a reused token). */
    async end(id: string, reason: 'logout' | 'deactivated' = 'logout'): Promise<void> {
      endedSessions.end(id);
      // The row first, then the tokens: a rotation locks the row while it makes a token (refresh-tokens.ts), so
      // deleting waits for it and the revocation after sees its token; any later rotation finds no sign-in.
      await db.deleteFrom('sign_ins').where('id', '=', id).execute();
      await revokeFamily(db, id, clock);
      await sessions.close(id, reason);
      await push.signedOut(id);
      for (const listener of listeners) await listener(id);
    },
  };
  return signIns;
}

export type SignIns = ReturnType<typeof createSignIns>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Sign-ins as «Устройства» shows them, and the one way to end one. */
    signIns: SignIns;
  }
}

export const signInsPlugin = fp(
  async (app) => {
    const { db, clock, endedSessions, realtime, push } = app;
    app.decorate('signIns', createSignIns({ db, clock, endedSessions, sessions: realtime.sessions, push }));
  },
  {
    name: 'sign-ins',
    decorators: { fastify: ['db', 'clock', 'endedSessions', 'realtime', 'push'] },
    dependencies: ['base', 'authentication', 'realtime', 'push'],
  },
);
