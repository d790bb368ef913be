// The second step of sign-in (docs/behaviour.md §10.7a): a TOTP authenticator (RFC 6238 through otplib: six digits,
// 30-second steps, SHA-1 as every authenticator app expects) and ten one-time recovery codes. Codes run on the
// server's clock; one step either side is accepted (a phone's clock drifts), and a step once accepted is never
// accepted again, so a code seen over someone's shoulder is useless. A recovery code is spent by its first use.
// Between the password and the code, the browser holds a challenge: an HMAC-signed statement «this account proved
// its password at …», valid for CHALLENGE_TTL_MS, and no session. «Запомнить этот браузер» is another signed note,
// kept in an HttpOnly cookie, tied to the moment the second factor was turned on (turning it off or resetting it
// forgets every remembered browser).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { Clock } from '../clock';
import type { Database } from '../db/database';

export const TOTP_PERIOD_SEC = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the second-factor step may take after the password. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** «Запомнить этот браузер на 30 дней». */
export const REMEMBER_MS = 30 * 24 * 3600_000;
/** How many accounts one browser is remembered for. */
export const REMEMBERED_MAX = 10;

const ISSUER = 'Беседа';
// No 0/o, 1/l/i: a code read off paper is typed back without guessing.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** «abcde-fghjk»: ten letters and digits in two halves. */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** What is compared: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const digest = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('base64url');

/** A six-digit code (spaces allowed, as apps show «123 456»). */
export const looksLikeTotp = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ''));

export interface TotpCheck {
  /** The 30-second step the code belongs to, or null when it is no code of this secret now. */
  step: number | null;
}

/** Which step (of the current one and one either side) `code` is for, on the clock's time. */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!secret || !/^\d{6}$/.test(token)) return null;
  const result = verifySync({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_SEC,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

const SEALED = 'v1.';

/**
 * The authenticator's secret as the database keeps it: AES-256-GCM under the server's data key (secrets.ts), so a copy
 * of the database alone cannot make codes. A secret kept before this (plain base32) is still read.
 */
export function secretBox(dataKey: Uint8Array) {
  const key = createHash('sha256').update(dataKey).update('two-factor-secret/v1').digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    /** The secret, or '' when it was sealed under another key (secrets.json replaced): no code matches it then. */
    open(stored: string): string {
      if (!stored.startsWith(SEALED)) return stored;
      try {
        const raw = Buffer.from(stored.slice(SEALED.length), 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return '';
      }
    },
  };
}

export function createTwoFactor(db: Database, clock: Clock, secret: Uint8Array, dataKey: Uint8Array) {
  const box = secretBox(dataKey);
  const iso = () => new Date(clock.now()).toISOString();
  const challengeKey = createHmac('sha256', secret).update('two-factor-challenge/v1').digest();
  const rememberKey = createHmac('sha256', secret).update('two-factor-remember/v1').digest();
  const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const sameMac = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };

  const twoFactor = {
    /** The account's confirmed secret and when it was turned on, or null while off. */
    async settings(userId: string): Promise<{ secret: string; enabledAt: string } | null> {
      const row = await db
        .selectFrom('two_factor')
        .select(['secret', 'enabled_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.secret && row.enabled_at ? { secret: box.open(row.secret), enabledAt: row.enabled_at } : null;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A new secret waiting for its first code (what was on before stays on until then); its QR code's address. */
    async begin(userId: string, username: string): Promise<{ secret: string; uri: string }> {
      const pending = generateSecret();
      const sealed = box.seal(pending);
      await db
        .insertInto('two_factor')
        .values({ user_id: userId, secret: null, pending_secret: sealed, enabled_at: null, last_step: null })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: sealed }))
        .execute();
      return { secret: pending, uri: generateURI({ issuer: ISSUER, label: username, secret: pending }) };
    },

    /** Turns the pending secret on when `code` is one of its codes; returns the new recovery codes, or null. */
    async confirm(userId: string, code: string): Promise<string[] | null> {
      const row = await db
        .selectFrom('two_factor')
        .select('pending_secret')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row?.pending_secret) return null;
      const step = totpStep(box.open(row.pending_secret), code, clock.now());
      if (step === null) return null;
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('two_factor')
          .set({ secret: row.pending_secret, pending_secret: null, enabled_at: iso(), last_step: step })
          .where('user_id', '=', userId)
          .execute();
        await replaceRecoveryCodes(trx, userId, codes);
      });
      return codes;
    },

    /** Ten fresh recovery codes instead of whatever was left. */
    async regenerate(userId: string): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId, codes));
      return codes;
    },

    async disable(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
    },

    /**
     * Checks a code from the app or a recovery code and uses it up: the app's step is recorded (only a later step
     * passes afterwards, atomically, so two requests with one code cannot both pass), a recovery code is spent.
     */
    async verify(userId: string, code: string): Promise<boolean> {
      const on = await twoFactor.settings(userId);
      if (!on) return false;
      if (looksLikeTotp(code)) {
        const step = totpStep(on.secret, code, clock.now());
        if (step === null) return false;
        const res = await db
          .updateTable('two_factor')
          .set({ last_step: step })
          .where('user_id', '=', userId)
          .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
          .executeTakeFirst();
        return Number(res.numUpdatedRows) === 1;
      }
      const normalised = normaliseRecoveryCode(code);
      if (!/^[a-z0-9]{10}$/.test(normalised)) return false;
      const res = await db
        .updateTable('recovery_codes')
        .set({ used_at: iso() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', digest(normalised))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** «This account proved its password»: handed to the browser for the second step. */
    challenge(userId: string): string {
      const body = Buffer.from(JSON.stringify({ u: userId, e: clock.now() + CHALLENGE_TTL_MS })).toString('base64url');
      return `${body}.${mac(challengeKey, body)}`;
    },

    /** The account a challenge was issued for, while it is valid; null when forged or expired. */
    challengedUser(token: string): string | null {
      const [body, tag, extra] = token.split('.');
      if (!body || !tag || extra !== undefined || !sameMac(tag, mac(challengeKey, body))) return null;
      try {
        const { u, e } = JSON.parse(Buffer.from(body, 'base64url').toString()) as { u: unknown; e: unknown };
        return typeof u === 'string' && typeof e === 'number' && clock.now() < e ? u : null;
      } catch {
        return null;
      }
    },

    /** A note that this browser passed the second step for the account (as it is on now), for REMEMBER_MS. */
    remember(userId: string, enabledAt: string): string {
      const nonce = randomBytes(12).toString('base64url');
      const until = (clock.now() + REMEMBER_MS).toString(36);
      return `${nonce}.${until}.${mac(rememberKey, `${userId}\n${enabledAt}\n${nonce}\n${until}`)}`;
    },

    /** Whether one of the notes is a live one for the account's current second factor. */
    remembered(userId: string, enabledAt: string, notes: readonly string[]): boolean {
      return notes.slice(0, REMEMBERED_MAX).some((note) => {
        const [nonce, until, tag, extra] = note.split('.');
        if (!nonce || !until || !tag || extra !== undefined) return false;
        if (!sameMac(tag, mac(rememberKey, `${userId}\n${enabledAt}\n${nonce}\n${until}`))) return false;
        return Number.parseInt(until, 36) > clock.now();
      });
    },
  };

  async function replaceRecoveryCodes(trx: Database, userId: string, codes: string[]): Promise<void> {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(codes.map((c) => ({ user_id: userId, code_hash: digest(c), used_at: null })))
      .execute();
  }

  return twoFactor;
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
