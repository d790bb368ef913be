// Passkeys (docs/behaviour.md §10.7b): WebAuthn credentials through @simplewebauthn/server. Adding one, signing in
// with one without a username (a discoverable credential: the browser offers the passkeys it keeps for this site) and
// using one as the second step after the password. Every ceremony's challenge is kept here with its purpose (and
// account) and taken by the first answer that names it, before it expires: an answer is never accepted twice, and a
// challenge made for one account or step does not serve another. The relying party is the site people open:
// PUBLIC_URL's host, or the request's own when it is unset (as the organisation's sign-in builds its addresses).
import { randomUUID } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Clock } from '../clock';
import { type Database, isUniqueViolation } from '../db/database';

/** How long a ceremony may take (the browser's own prompt times out earlier). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** How many passkeys one account keeps. */
export const PASSKEYS_MAX = 20;
const RP_NAME = 'Беседа';

export type ChallengePurpose = 'register' | 'signIn' | 'secondFactor';

/** Where the ceremony runs: the relying party's id (a host name) and the origins its pages may have. */
export interface RelyingParty {
  id: string;
  origins: string[];
}

export function relyingParty(publicUrl: string | null, requestOrigin: string, allowedOrigins: string[]): RelyingParty {
  const origin = publicUrl ?? requestOrigin;
  return { id: new URL(origin).hostname, origins: [origin, ...allowedOrigins.filter((o) => o !== origin)] };
}

export function createPasskeys(db: Database, clock: Clock) {
  const iso = (ms = clock.now()) => new Date(ms).toISOString();

  async function keepChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
    // The unanswered ones go as new ones come (their number is held down by the routes' rate limit).
    await passkeys.sweep();
    await db
      .insertInto('webauthn_challenges')
      .values({ challenge, purpose, user_id: userId, expires_at: iso(clock.now() + PASSKEY_CHALLENGE_TTL_MS) })
      .execute();
  }

  /** Takes a live challenge of this purpose (and account) once: true only for the first taker. */
  async function takeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<boolean> {
    let q = db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', iso());
    q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
    const res = await q.executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  const passkeys = {
    list(userId: string) {
      return db
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** When the account's first kept passkey was added (null without one). */
    async oldest(userId: string): Promise<string | null> {
      const row = await db
        .selectFrom('passkeys')
        .select('created_at')
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      return row?.created_at ?? null;
    },

    /** The options of adding a passkey: a discoverable one, verified by the person, none already kept offered again. */
    async registrationOptions(rp: RelyingParty, user: { id: string; username: string; displayName: string }) {
      const existing = await db
        .selectFrom('passkeys')
        .select(['credential_id', 'transports'])
        .where('user_id', '=', user.id)
        .execute();
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userName: user.username,
        userDisplayName: user.displayName,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await keepChallenge(options.challenge, 'register', user.id);
      return options;
    },

    /** Keeps the new passkey when the browser's answer is for a challenge made for this account; null otherwise. */
    async register(rp: RelyingParty, userId: string, name: string, response: RegistrationResponseJSON) {
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: (c) => takeChallenge(c, 'register', userId),
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: false,
      }).catch(() => null);
      if (!verification?.verified) return null;
      const { credential } = verification.registrationInfo;
      const row = {
        id: randomUUID(),
        credential_id: credential.id,
        user_id: userId,
        public_key: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name,
        created_at: iso(),
        last_used_at: null,
      };
      // A credential kept already (by anyone) is not kept twice.
      const taken = await db
        .selectFrom('passkeys')
        .select('id')
        .where('credential_id', '=', credential.id)
        .executeTakeFirst();
      if (taken) return null;
      try {
        await db.insertInto('passkeys').values(row).execute();
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
      return row;
    },

    /**
     * The options of a sign-in with a passkey: for any passkey of this site (`userId` null, no username typed), or
     * for the account's own (the second step).
     */
    async authenticationOptions(rp: RelyingParty, userId: string | null) {
      const allow = userId
        ? await db
            .selectFrom('passkeys')
            .select(['credential_id', 'transports'])
            .where('user_id', '=', userId)
            .execute()
        : [];
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: userId ? 'preferred' : 'required',
        allowCredentials: allow.map((c) => ({ id: c.credential_id, transports: transportsOf(c.transports) })),
      });
      await keepChallenge(options.challenge, userId ? 'secondFactor' : 'signIn', userId);
      return options;
    },

    /**
     * The account and passkey behind a sign-in answer, or null: an unknown passkey, another account's (for the
     * second step), a challenge not made for this (or spent, or expired), a bad signature, a counter gone back.
     * Without a password first, the authenticator must have verified the person (a PIN, a fingerprint).
     */
    async authenticate(
      rp: RelyingParty,
      response: AuthenticationResponseJSON,
      userId: string | null,
    ): Promise<{ userId: string; passkeyId: string } | null> {
      const stored = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('credential_id', '=', response.id)
        .executeTakeFirst();
      if (!stored || (userId !== null && stored.user_id !== userId)) {
        // The challenge is spent all the same: an answer is taken once, whoever's passkey it names.
        await takeChallenge(challengeOf(response), userId ? 'secondFactor' : 'signIn', userId).catch(() => false);
        return null;
      }
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (c) => takeChallenge(c, userId ? 'secondFactor' : 'signIn', userId),
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: stored.credential_id,
          publicKey: isoBase64URL.toBuffer(stored.public_key),
          counter: Number(stored.counter),
          transports: transportsOf(stored.transports),
        },
        requireUserVerification: userId === null,
      }).catch(() => null);
      if (!verification?.verified) return null;
      await db
        .updateTable('passkeys')
        .set({ counter: verification.authenticationInfo.newCounter, last_used_at: iso() })
        .where('id', '=', stored.id)
        .execute();
      return { userId: stored.user_id, passkeyId: stored.id };
    },

    /** Renames the account's passkey; false when it has no such passkey. */
    async rename(userId: string, id: string, name: string): Promise<boolean> {
      const res = await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const res = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    /** Forgets the challenges nobody answered in time. */
    async sweep(): Promise<void> {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', iso()).execute();
    },
  };
  return passkeys;
}

export type Passkeys = ReturnType<typeof createPasskeys>;

function transportsOf(json: string): AuthenticatorTransport[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : [];
  } catch {
    return [];
  }
}

/** The challenge the browser's answer echoes (empty when unreadable). */
function challengeOf(response: AuthenticationResponseJSON): string {
  try {
    const json = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON)) as { challenge?: unknown };
    return typeof json.challenge === 'string' ? json.challenge : '';
  } catch {
    return '';
  }
}
