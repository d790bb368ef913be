// Secret chats' devices and their one-time key packages (docs/secret-chats.md). A device is one browser sign-in: it
// registers once (again the same device for the same sign-in), keeps up to KEY_PACKAGES_MAX key packages here, and
// is revoked when its sign-in ends. A key package is handed out once: the DELETE that takes it succeeds for one
// caller only, on either database, so two claims racing for the same package get two different ones. Packages
// older than LIMITS.keyPackageTtlDays are never handed out and are pruned when met; a device's one last-resort
// package is handed out only when it has no other, and stays.
import { createHash, randomUUID } from 'node:crypto';
import { LIMITS } from '../../src/contract/limits';
import type { SecretDevice } from '../../src/contract/secret';
import { type Database, isUniqueViolation } from '../db/database';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';

export const DEVICE_NOT_FOUND = 'Устройство не найдено';
export const NOT_YOUR_DEVICE = 'Это устройство другого пользователя';
export const DEVICE_REVOKED = 'Устройство отключено: его сеанс завершён';
const TOO_MANY_DEVICES = `Секретные чаты доступны не больше чем на ${LIMITS.secretDevicesMax} устройствах`;
/** What one device may keep on the server: a full stock and one more upload. */
export const KEY_PACKAGES_MAX = LIMITS.keyPackagesKeep + LIMITS.keyPackagesPerUpload;
const TOO_MANY_PACKAGES = `На сервере может лежать не больше ${KEY_PACKAGES_MAX} пакетов ключей устройства`;
export const KEY_PACKAGE_REUSED = 'Этот пакет ключей уже был загружен: каждый используется один раз';

/** A key package's identity: the SHA-256 of its bytes (two base64 spellings of one package are one package). */
const digestOf = (body: string) => createHash('sha256').update(Buffer.from(body, 'base64')).digest('hex');

export interface DeviceRow {
  id: string;
  user_id: string;
  session_id: string;
  created_at: string;
  revoked_at: string | null;
}

export const toDevice = (r: DeviceRow): SecretDevice => ({ id: r.id, userId: r.user_id, createdAt: r.created_at });

const TTL_MS = LIMITS.keyPackageTtlDays * 24 * 60 * 60 * 1000;

export function createDevices(db: Database, now: () => string) {
  /** Packages created before this have expired (ISO strings of one format order as the times do). */
  const cutoff = () => new Date(Date.parse(now()) - TTL_MS).toISOString();

  /** Deletes the device's expired packages: they would never be handed out. */
  const prune = (deviceId: string) =>
    db.deleteFrom('secret_key_packages').where('device_id', '=', deviceId).where('created_at', '<', cutoff()).execute();

  /** The device's live one-time packages, and whether it has a live last-resort one. */
  const stock = async (deviceId: string) => {
    await prune(deviceId);
    const rows = await db
      .selectFrom('secret_key_packages')
      .select(['last_resort', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('device_id', '=', deviceId)
      .groupBy('last_resort')
      .execute();
    const of = (flag: number) => Number(rows.find((r) => Number(r.last_resort) === flag)?.n ?? 0);
    return { keyPackagesLeft: of(0), lastResort: of(1) > 0 };
  };
  const keyPackagesLeft = async (deviceId: string) => (await stock(deviceId)).keyPackagesLeft;

  /** The packages' digests; 409 when one repeats in the upload or was uploaded before. */
  async function freshDigests(bodies: readonly string[]): Promise<string[]> {
    const digests = bodies.map(digestOf);
    if (new Set(digests).size !== digests.length) throw conflict(KEY_PACKAGE_REUSED);
    const seen = await db
      .selectFrom('secret_key_package_digests')
      .select('digest')
      .where('digest', 'in', digests)
      .executeTakeFirst();
    if (seen) throw conflict(KEY_PACKAGE_REUSED);
    return digests;
  }

  /**
   * Stores key packages of a device, refusing (before writing any) those beyond KEY_PACKAGES_MAX and any package
   * uploaded before, by anyone, even one handed out and deleted since (409): a key package is used once.
   */
  async function store(device: DeviceRow, bodies: readonly string[], lastResort?: string): Promise<number> {
    const digests = await freshDigests(lastResort === undefined ? bodies : [...bodies, lastResort]);
    await prune(device.id);
    try {
      return await db.transaction().execute(async (trx) => {
        const have = await trx
          .selectFrom('secret_key_packages')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('device_id', '=', device.id)
          .where('last_resort', '=', 0)
          .executeTakeFirstOrThrow();
        const left = Number(have.n);
        if (left + bodies.length > KEY_PACKAGES_MAX) throw badRequest(TOO_MANY_PACKAGES);
        const at = now();
        // The digests' primary key settles an upload racing another of the same package (409, nothing kept).
        await trx
          .insertInto('secret_key_package_digests')
          .values(digests.map((digest) => ({ digest, device_id: device.id, created_at: at })))
          .execute();
        await trx
          .insertInto('secret_key_packages')
          .values(bodies.map((body) => ({ device_id: device.id, user_id: device.user_id, body, created_at: at })))
          .execute();
        if (lastResort !== undefined) {
          // One per device: a new one replaces the last.
          await trx
            .deleteFrom('secret_key_packages')
            .where('device_id', '=', device.id)
            .where('last_resort', '=', 1)
            .execute();
          await trx
            .insertInto('secret_key_packages')
            .values({ device_id: device.id, user_id: device.user_id, body: lastResort, created_at: at, last_resort: 1 })
            .execute();
        }
        return left + bodies.length;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(KEY_PACKAGE_REUSED);
      throw err;
    }
  }

  /** The caller's device, live: 404 for an unknown id, 403 for someone else's or a revoked one. */
  async function ownLive(userId: string, deviceId: string): Promise<DeviceRow> {
    const row = await db.selectFrom('secret_devices').selectAll().where('id', '=', deviceId).executeTakeFirst();
    if (!row) throw notFound(DEVICE_NOT_FOUND);
    if (row.user_id !== userId) throw forbidden(NOT_YOUR_DEVICE);
    if (row.revoked_at !== null) throw forbidden(DEVICE_REVOKED);
    return row;
  }

  /**
   * This sign-in as a device (created on first call) with the key packages added. `created` says whether it is new
   * (the members of the user's secret chats then hear that there is a device to add).
   */
  async function register(
    userId: string,
    sessionId: string,
    keys: { signatureKey: string; identitySignature: string },
    bodies: readonly string[],
    lastResort?: string,
  ) {
    const find = () =>
      db.selectFrom('secret_devices').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
    let device = await find();
    let created = false;
    if (!device) {
      await freshDigests(lastResort === undefined ? bodies : [...bodies, lastResort]); // nor does a reused package
      const live = await db
        .selectFrom('secret_devices')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(live.n) >= LIMITS.secretDevicesMax) throw badRequest(TOO_MANY_DEVICES);
      const res = await db
        .insertInto('secret_devices')
        .values({
          id: randomUUID(),
          user_id: userId,
          session_id: sessionId,
          created_at: now(),
          revoked_at: null,
          signature_key: keys.signatureKey,
          identity_signature: keys.identitySignature,
        })
        .onConflict((oc) => oc.column('session_id').doNothing())
        .executeTakeFirst();
      created = Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
      device = await find();
      if (!device) throw new Error('secret device not stored');
    }
    // A session id belongs to one user; a revoked sign-in's token is refused before it gets here.
    if (device.user_id !== userId || device.revoked_at !== null) throw forbidden(DEVICE_REVOKED);
    const keyPackagesLeft = await store(device, bodies, lastResort);
    return { device: toDevice(device), keyPackagesLeft, created };
  }

  async function addKeyPackages(userId: string, deviceId: string, bodies: readonly string[], lastResort?: string) {
    const device = await ownLive(userId, deviceId);
    return { keyPackagesLeft: await store(device, bodies, lastResort) };
  }

  /** Whether the user has a live device other than `deviceId` (their first one makes news for their chats). */
  async function hasOtherDevice(userId: string, deviceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('secret_devices')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '!=', deviceId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * One key package of each live device of these users (but `exceptDevice`, the caller's own), narrowed to
   * `deviceIds` when given; each is deleted as it is taken. Users none of whose devices had one are `unavailable`.
   */
  async function claim(userIds: readonly string[], exceptDevice: string | null, deviceIds?: readonly string[]) {
    const devices = await db
      .selectFrom('secret_devices')
      .select(['id', 'user_id'])
      .where('user_id', 'in', [...userIds])
      .where('revoked_at', 'is', null)
      .$if(deviceIds !== undefined, (q) => q.where('id', 'in', deviceIds?.length ? [...deviceIds] : ['']))
      .orderBy('user_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const packages: { userId: string; deviceId: string; keyPackage: string }[] = [];
    for (const d of devices) {
      if (d.id === exceptDevice) continue;
      const body = await takeOne(d.id);
      if (body !== null) packages.push({ userId: d.user_id, deviceId: d.id, keyPackage: body });
    }
    const served = new Set(packages.map((p) => p.userId));
    return { packages, unavailable: [...new Set(userIds)].filter((id) => !served.has(id)) };
  }

  /**
   * The device's oldest live key package, deleted; a package another claim took meanwhile is skipped. With none
   * left, its last-resort package, which stays.
   */
  async function takeOne(deviceId: string): Promise<string | null> {
    await prune(deviceId);
    const since = cutoff();
    for (;;) {
      const oldest = await db
        .selectFrom('secret_key_packages')
        .select('id')
        .where('device_id', '=', deviceId)
        .where('last_resort', '=', 0)
        .where('created_at', '>=', since)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!oldest) {
        const last = await db
          .selectFrom('secret_key_packages')
          .select('body')
          .where('device_id', '=', deviceId)
          .where('last_resort', '=', 1)
          .where('created_at', '>=', since)
          .executeTakeFirst();
        return last?.body ?? null;
      }
      const taken = await db
        .deleteFrom('secret_key_packages')
        .where('id', '=', oldest.id)
        .returning('body')
        .executeTakeFirst();
      if (taken) return taken.body;
    }
  }

  /** Revokes the sign-in's device and deletes its key packages; returns it, if it had one that was live. */
  async function revokeSession(sessionId: string): Promise<DeviceRow | null> {
    const device = await db
      .selectFrom('secret_devices')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!device) return null;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('secret_devices')
        .set({ revoked_at: now() })
        .where('id', '=', device.id)
        .where('revoked_at', 'is', null)
        .execute();
      await trx.deleteFrom('secret_key_packages').where('device_id', '=', device.id).execute();
    });
    return device;
  }

  return { register, addKeyPackages, ownLive, claim, revokeSession, keyPackagesLeft, stock, hasOtherDevice };
}

export type Devices = ReturnType<typeof createDevices>;
