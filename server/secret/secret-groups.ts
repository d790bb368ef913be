// Secret chats' groups (docs/secret-chats.md): creating one, its ordered log of commits and welcomes, and what each
// device has to do. The server never reads an MLS message; it keeps the order. A commit names the epoch it was made
// in, and the conversation's epoch moves on by a conditional UPDATE (… WHERE secret_epoch = that epoch) inside the
// transaction that appends it, so of two commits made in the same epoch exactly one is stored, on either database;
// the other is answered 409 and its device reads the log and tries again.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Conversation } from '../../src/contract/entities';
import { LIMITS } from '../../src/contract/limits';
import type { CommitBody, CreateSecretBody, LogEntry } from '../../src/contract/secret';
import { loadConversation } from '../conversations/conversation-view';
import { FRIENDS_ONLY } from '../conversations/group-members';
import type { ConversationListCache } from '../conversations/list-cache';
import { membersFor, membersOfMany, rememberMembers } from '../conversations/membership';
import { isSecret, NOT_SECRET, rememberSecret } from '../conversations/secret-flag';
import { writeSystemEntry } from '../conversations/system-entries';
import type { Database } from '../db/database';
import { allInDirectory } from '../directory/directory';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import type { RealtimeHub } from '../realtime/hub';
import type { Blocks } from '../users/blocks';
import { requireMayWrite, writeRefusal } from '../users/message-privacy';
import type { Devices } from './devices';

export const STALE_EPOCH = 'Группа уже изменилась: обновите состояние и повторите';
export const NOT_IN_GROUP = 'Это устройство не входит в группу секретного чата';
const NOT_MEMBERS_DEVICES = 'Устройство не принадлежит участникам чата или отключено';
const ALREADY_IN_GROUP = 'Устройство уже в группе';
const NOT_IN_GROUP_TO_REMOVE = 'Удаляемого устройства нет в группе';
const BOTH_WAYS = 'Одно устройство нельзя и добавить, и удалить';
const WELCOME_NEEDED = 'Добавленным устройствам нужно приглашение (welcome)';
const WELCOME_UNNEEDED = 'Приглашение (welcome) нужно только при добавлении устройств';
const SELF_WELCOME = 'Создающее устройство уже в группе: приглашение ему не нужно';
const CREATE_WELCOME_UNNEEDED = 'Приглашение (welcome) нужно, только когда в группу добавлены другие устройства';
const CLAIM_FORBIDDEN = 'Ключи выдаются только для друзей и участников вашего секретного чата';

export interface SecretGroupDeps {
  db: Database;
  devices: Devices;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers' | 'toUser' | 'isOnline'>;
  blocks: Pick<Blocks, 'has' | 'between'>;
  now: () => string;
}

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const ids = (json: string): string[] => JSON.parse(json) as string[];

export function createSecretGroups({ db, devices, lists, realtime, blocks, now }: SecretGroupDeps) {
  /** Which of `others` are not accepted friends of userId. */
  async function strangers(userId: string, others: readonly string[]): Promise<string[]> {
    if (!others.length) return [];
    const rows = await db
      .selectFrom('contacts')
      .select('pair_key')
      .where(
        'pair_key',
        'in',
        others.map((o) => pairKey(userId, o)),
      )
      .where('status', '=', 'ACCEPTED')
      .execute();
    const friends = new Set(rows.map((r) => r.pair_key));
    return others.filter((o) => !friends.has(pairKey(userId, o)));
  }

  /** The secret conversation's epoch; 404 for a non-member (checked by the caller), 400 for a plaintext one. */
  async function epochOf(conversationId: string): Promise<number> {
    const row = await db
      .selectFrom('conversations')
      .select(['secret', 'secret_epoch'])
      .where('id', '=', conversationId)
      .executeTakeFirst();
    if (!row) throw notFound('Беседа не найдена');
    if (Number(row.secret) !== 1) throw badRequest(NOT_SECRET);
    return Number(row.secret_epoch);
  }

  /** The device's place in the group (current or past), or undefined when it never was in it. */
  const placeOf = (conversationId: string, deviceId: string) =>
    db
      .selectFrom('secret_group_devices')
      .select(['joined_seq', 'left_seq'])
      .where('conversation_id', '=', conversationId)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();

  /** The devices in the group now. */
  const groupDevices = (conversationId: string) =>
    db
      .selectFrom('secret_group_devices')
      .select(['device_id', 'user_id', 'rejoin_at'])
      .where('conversation_id', '=', conversationId)
      .where('left_seq', 'is', null)
      .execute();

  /** Of these device ids, those that are live devices of `users`. */
  async function liveDevicesOf(deviceIds: readonly string[], users: readonly string[]) {
    if (!deviceIds.length) return [];
    return db
      .selectFrom('secret_devices')
      .select(['id', 'user_id'])
      .where('id', 'in', [...deviceIds])
      .where('user_id', 'in', [...users])
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Tells the members of these secret chats that devices wait to be added or removed: each member once, with the
   * chats they are in.
   */
  async function announcePending(conversationIds: readonly string[]): Promise<void> {
    if (!conversationIds.length) return;
    const byUser = new Map<string, string[]>();
    for (const [id, members] of await membersOfMany(db, conversationIds)) {
      for (const m of members) byUser.set(m, [...(byUser.get(m) ?? []), id]);
    }
    for (const [userId, list] of byUser) realtime.toUser(userId, 'secret:pending', { conversationIds: list });
  }

  /**
   * A user's new device: their secret chats have a device to add. Their first one is news of its own
   * (`secret:firstDevice`): the members' devices may hold messages written while the user had none.
   */
  async function deviceAdded(userId: string, first = false): Promise<void> {
    const ids = (await secretChatsOf(userId).execute()).map((r) => r.id);
    await announcePending(ids);
    if (!first || !ids.length) return;
    const byUser = new Map<string, string[]>();
    for (const [id, members] of await membersOfMany(db, ids)) {
      for (const m of members) byUser.set(m, [...(byUser.get(m) ?? []), id]);
    }
    for (const [member, list] of byUser)
      realtime.toUser(member, 'secret:firstDevice', { userId, conversationIds: list });
  }

  /** The secret chats `userId` is a member of (a query to narrow further). */
  function secretChatsOf(userId: string) {
    return db
      .selectFrom('conversation_members as cm')
      .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
      .select('c.id')
      .where('cm.user_id', '=', userId)
      .where('c.secret', '=', 1);
  }

  /**
   * A device's key packages arrived: the user's secret chats it is not in yet have it to add. Its registration
   * already announced them, but an adder that claimed only the registration package (which names no device) may
   * have given up before these were uploaded.
   */
  async function keyPackagesAdded(userId: string, deviceId: string): Promise<void> {
    const rows = await secretChatsOf(userId)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('secret_group_devices as d')
              .select('d.device_id')
              .whereRef('d.conversation_id', '=', 'c.id')
              .where('d.device_id', '=', deviceId)
              .where('d.left_seq', 'is', null),
          ),
        ),
      )
      .execute();
    await announcePending(rows.map((r) => r.id));
  }

  /** A revoked device: the groups it is still in have it to remove. */
  async function deviceRevoked(deviceId: string): Promise<void> {
    const rows = await db
      .selectFrom('secret_group_devices')
      .select('conversation_id')
      .where('device_id', '=', deviceId)
      .where('left_seq', 'is', null)
      .execute();
    await announcePending(rows.map((r) => r.conversation_id));
  }

  /**
   * Whose key packages the caller may take: their own (other devices), accepted friends, and the members of the
   * secret chat named (the caller being one). 403 for anyone else.
   */
  async function mayClaim(userId: string, userIds: readonly string[], conversationId?: string): Promise<void> {
    const allowed = new Set([userId]);
    if (conversationId !== undefined) {
      for (const m of await membersFor(db, conversationId, userId)) allowed.add(m);
      if (!(await isSecret(db, conversationId))) throw badRequest(NOT_SECRET);
    }
    const rest = [...new Set(userIds)].filter((id) => !allowed.has(id));
    const unknown = await strangers(userId, rest);
    // One person the caller may write to first (a secret direct chat, §10.26) may be claimed too.
    const [only] = unknown;
    if (unknown.length === 1 && only && !conversationId && !(await writeRefusal({ db, blocks }, userId, only))) return;
    // With «Каталог участников» on, a secret group may take anyone found there (docs/behaviour.md §10.25).
    if (unknown.length && !(await allInDirectory(db, userId, unknown))) throw forbidden(CLAIM_FORBIDDEN);
  }

  async function create(
    userId: string,
    body: z.output<typeof CreateSecretBody>,
  ): Promise<{ conversation: Conversation }> {
    const device = await devices.ownLive(userId, body.deviceId);
    const others = [...new Set(body.memberIds)].filter((id) => id !== userId);
    if (others.length === 0) throw badRequest('Выберите участников');
    const known = await db.selectFrom('users').select('id').where('id', 'in', others).execute();
    if (known.length !== others.length) throw notFound('Пользователь не найден');
    const title = body.title?.trim() || null;
    const direct = others.length === 1 && !title;
    const unknown = await strangers(userId, others);
    const peer = others[0] as string;
    // A secret direct chat follows a plain one's rule: «Кто может мне писать», a block either way (§10.26).
    if (direct) await requireMayWrite({ db, blocks }, userId, peer);
    else if (unknown.length && !(await allInDirectory(db, userId, unknown))) throw forbidden(FRIENDS_ONLY);
    const members = [userId, ...others];
    const welcomed = [...new Set(body.deviceIds)];
    if (welcomed.includes(device.id)) throw badRequest(SELF_WELCOME);
    // No other device yet (the members have not opened Беседа in a browser): the group is the creator's device
    // alone, and the others are added by a commit when their first device appears.
    if (welcomed.length > 0 && !body.welcome) throw badRequest(WELCOME_NEEDED);
    if (welcomed.length === 0 && body.welcome) throw badRequest(CREATE_WELCOME_UNNEEDED);
    const owners = new Map((await liveDevicesOf(welcomed, members)).map((d) => [d.id, d.user_id]));
    if (owners.size !== welcomed.length) throw badRequest(NOT_MEMBERS_DEVICES);

    const id = randomUUID();
    const at = now();
    const seq = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('conversations')
        .values({
          id,
          title,
          is_group: direct ? 0 : 1,
          // Unique like a direct chat's pair key, and marks it as one (no member management), but one per chat:
          // a pair may have several secret chats besides its plaintext one.
          direct_key: direct ? `secret:${id}` : null,
          created_by: userId,
          created_at: at,
          secret: 1,
          secret_epoch: 1,
        })
        .execute();
      await trx
        .insertInto('conversation_members')
        .values(
          members.map((user_id) => ({
            conversation_id: id,
            user_id,
            joined_at: at,
            role: !direct && user_id === userId ? 'OWNER' : 'MEMBER',
          })),
        )
        .execute();
      if (!direct) await writeSystemEntry(trx, id, userId, 'created', [], null, new Date(at));
      // The group's first log entry: the welcome, or with no one to welcome an empty one (the seq the creating
      // device starts from; it is addressed to no device, so no one reads it).
      const welcome = await trx
        .insertInto('secret_log')
        .values({
          conversation_id: id,
          kind: 'welcome',
          epoch: 0,
          device_id: device.id,
          body: body.welcome ?? '',
          added: JSON.stringify(welcomed),
          removed: '[]',
          targets: JSON.stringify(welcomed),
          created_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const seq = Number(welcome.id);
      await trx
        .insertInto('secret_group_devices')
        .values(
          [device.id, ...welcomed].map((device_id) => ({
            conversation_id: id,
            device_id,
            user_id: device_id === device.id ? userId : (owners.get(device_id) as string),
            joined_epoch: 1,
            joined_seq: seq,
            left_seq: null,
          })),
        )
        .execute();
      return seq;
    });
    rememberMembers(db, id, members, direct ? null : userId);
    rememberSecret(db, id, true);
    lists.changed(members, id);
    const entry = await loadConversation({ db, realtime, blocks }, userId, id);
    realtime.toUsers(members, 'conversations:new', { conversation: entry.conversation });
    realtime.toUsers(members, 'secret:log', { conversationId: id, seq, epoch: 1 });
    return { conversation: entry.conversation };
  }

  async function commit(userId: string, body: z.output<typeof CommitBody>) {
    const device = await devices.ownLive(userId, body.deviceId);
    const members = await membersFor(db, body.conversationId, userId);
    const epoch = await epochOf(body.conversationId);
    const group = await groupDevices(body.conversationId);
    const inGroup = new Set(group.map((d) => d.device_id));
    if (!inGroup.has(device.id)) throw forbidden(NOT_IN_GROUP);
    if (body.epoch !== epoch) throw conflict(STALE_EPOCH);
    const added = [...new Set(body.added)];
    const removed = [...new Set(body.removed)];
    // A device that asked to rejoin is removed and added again in one commit (its stale leaf for a fresh one).
    const rejoining = new Set(group.filter((d) => d.rejoin_at !== null).map((d) => d.device_id));
    const readded = (d: string) => rejoining.has(d) && removed.includes(d);
    if (added.some((d) => removed.includes(d) && !rejoining.has(d))) throw badRequest(BOTH_WAYS);
    if (added.some((d) => inGroup.has(d) && !readded(d))) throw badRequest(ALREADY_IN_GROUP);
    if (removed.some((d) => !inGroup.has(d))) throw badRequest(NOT_IN_GROUP_TO_REMOVE);
    const addedDevices = await liveDevicesOf(added, members);
    if (addedDevices.length !== added.length) throw badRequest(NOT_MEMBERS_DEVICES);
    if (added.length && !body.welcome) throw badRequest(WELCOME_NEEDED);
    if (!added.length && body.welcome) throw badRequest(WELCOME_UNNEEDED);

    const at = now();
    const next = epoch + 1;
    const seq = await db.transaction().execute(async (trx) => {
      // The order's one gate: of the commits made in this epoch, the first to get here moves it on.
      const moved = await trx
        .updateTable('conversations')
        .set({ secret_epoch: next })
        .where('id', '=', body.conversationId)
        .where('secret', '=', 1)
        .where('secret_epoch', '=', epoch)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw conflict(STALE_EPOCH);
      const entry = (kind: 'commit' | 'welcome', text: string) =>
        trx
          .insertInto('secret_log')
          .values({
            conversation_id: body.conversationId,
            kind,
            epoch,
            device_id: device.id,
            body: text,
            added: JSON.stringify(added),
            removed: JSON.stringify(removed),
            targets: kind === 'welcome' ? JSON.stringify(added) : '[]',
            created_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      const commitSeq = Number((await entry('commit', body.commit)).id);
      if (removed.length)
        await trx
          .updateTable('secret_group_devices')
          .set({ left_seq: commitSeq })
          .where('conversation_id', '=', body.conversationId)
          .where('device_id', 'in', removed)
          .where('left_seq', 'is', null)
          .execute();
      if (!added.length || !body.welcome) return commitSeq;
      const welcomeSeq = Number((await entry('welcome', body.welcome)).id);
      await trx
        .insertInto('secret_group_devices')
        .values(
          addedDevices.map((d) => ({
            conversation_id: body.conversationId,
            device_id: d.id,
            user_id: d.user_id,
            joined_epoch: next,
            joined_seq: welcomeSeq,
            left_seq: null,
            rejoin_at: null,
          })),
        )
        // A device removed before (or just now, to rejoin) comes back with a new place: it reads from its new
        // welcome on.
        .onConflict((oc) =>
          oc
            .columns(['conversation_id', 'device_id'])
            .doUpdateSet({ joined_epoch: next, joined_seq: welcomeSeq, left_seq: null, rejoin_at: null }),
        )
        .execute();
      return welcomeSeq;
    });
    realtime.toUsers(members, 'secret:log', { conversationId: body.conversationId, seq, epoch: next });
    return { seq, epoch: next };
  }

  /**
   * The log after `after` as this device may read it: the commits from its welcome up to the one that removed it,
   * and the welcomes addressed to it. A revoked device (403), a non-member (404) or a device that was never in the
   * group (403) reads nothing.
   */
  async function log(userId: string, conversationId: string, deviceId: string, after: number) {
    const device = await devices.ownLive(userId, deviceId);
    await membersFor(db, conversationId, userId);
    const epoch = await epochOf(conversationId);
    const place = await placeOf(conversationId, device.id);
    if (!place) throw forbidden(NOT_IN_GROUP);
    const joined = Number(place.joined_seq);
    const left = place.left_seq === null ? null : Number(place.left_seq);
    const rows = await db
      .selectFrom('secret_log')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('id', '>', after)
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'commit'), eb('id', '>', joined), ...(left === null ? [] : [eb('id', '<=', left)])]),
          // Device ids are UUIDs: nothing in them is a LIKE wildcard.
          eb.and([eb('kind', '=', 'welcome'), eb('targets', 'like', `%"${device.id}"%`)]),
        ]),
      )
      .orderBy('id')
      .limit(LIMITS.secretLogPage + 1)
      .execute();
    const page = rows.slice(0, LIMITS.secretLogPage);
    const entries: LogEntry[] = page.map((r) => ({
      seq: Number(r.id),
      kind: r.kind,
      epoch: Number(r.epoch),
      deviceId: r.device_id,
      body: r.body,
      added: ids(r.added),
      removed: ids(r.removed),
      createdAt: r.created_at,
    }));
    return { entries, epoch, hasMore: rows.length > LIMITS.secretLogPage };
  }

  /** Every secret chat of the caller as this device sees it: the epoch, its place, devices to add and remove. */
  async function state(userId: string, deviceId: string) {
    const device = await devices.ownLive(userId, deviceId);
    const chats = await db
      .selectFrom('conversation_members as cm')
      .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
      .select(['c.id', 'c.secret_epoch'])
      .where('cm.user_id', '=', userId)
      .where('c.secret', '=', 1)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();
    const { keyPackagesLeft, lastResort } = await devices.stock(device.id);
    if (!chats.length) return { groups: [], keyPackagesLeft, lastResort };
    const chatIds = chats.map((c) => c.id);
    const members = await membersOfMany(db, chatIds);
    const people = [...new Set([...members.values()].flat())];
    const [inGroups, live] = await Promise.all([
      db
        .selectFrom('secret_group_devices as g')
        .innerJoin('secret_devices as d', 'd.id', 'g.device_id')
        .select(['g.conversation_id', 'g.device_id', 'g.user_id', 'g.rejoin_at', 'd.revoked_at'])
        .where('g.conversation_id', 'in', chatIds)
        .where('g.left_seq', 'is', null)
        .orderBy('g.device_id')
        .execute(),
      db
        .selectFrom('secret_devices')
        .select(['id', 'user_id'])
        .where('user_id', 'in', people)
        .where('revoked_at', 'is', null)
        .orderBy('user_id')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    const groups = chats.map((c) => {
      const who = new Set(members.get(c.id) ?? []);
      const here = inGroups.filter((g) => g.conversation_id === c.id);
      const present = new Set(here.map((g) => g.device_id));
      const gone = (g: (typeof here)[number]) => g.revoked_at !== null || !who.has(g.user_id);
      // A device that asked to rejoin: its stale leaf to remove, and itself to add again.
      const rejoining = new Set(here.filter((g) => g.rejoin_at !== null && !gone(g)).map((g) => g.device_id));
      return {
        conversationId: c.id,
        epoch: Number(c.secret_epoch),
        member: present.has(device.id),
        toAdd: live
          .filter((d) => who.has(d.user_id) && (!present.has(d.id) || rejoining.has(d.id)))
          .map((d) => ({ userId: d.user_id, deviceId: d.id })),
        toRemove: here.filter((g) => gone(g) || rejoining.has(g.device_id)).map((g) => g.device_id),
        withoutDevice: [...who].filter((u) => !live.some((d) => d.user_id === u)).sort(),
        memberIds: [...who].sort(),
      };
    });
    return { groups, keyPackagesLeft, lastResort };
  }

  /**
   * This device could not apply a commit of the group: it asks to be added again. Only a live device of the caller,
   * a member, that is in the group now; the members' devices hear `secret:pending` and one commits the re-addition.
   */
  async function rejoin(userId: string, conversationId: string, deviceId: string) {
    const device = await devices.ownLive(userId, deviceId);
    await membersFor(db, conversationId, userId);
    await epochOf(conversationId);
    const place = await placeOf(conversationId, device.id);
    if (!place || place.left_seq !== null) throw forbidden(NOT_IN_GROUP);
    await db
      .updateTable('secret_group_devices')
      .set({ rejoin_at: now() })
      .where('conversation_id', '=', conversationId)
      .where('device_id', '=', device.id)
      .where('left_seq', 'is', null)
      .where('rejoin_at', 'is', null)
      .execute();
    await announcePending([conversationId]);
    return { ok: true as const };
  }

  /** The checks of an ENCRYPTED send: a secret chat, the device in its group, the message made in its epoch. */
  async function checkSend(conversationId: string, deviceId: string, epoch: number): Promise<void> {
    const current = await epochOf(conversationId);
    const place = await placeOf(conversationId, deviceId);
    if (!place || place.left_seq !== null) throw forbidden(NOT_IN_GROUP);
    if (epoch !== current) throw conflict(STALE_EPOCH);
  }

  return {
    create,
    commit,
    log,
    state,
    rejoin,
    mayClaim,
    checkSend,
    deviceAdded,
    keyPackagesAdded,
    deviceRevoked,
  };
}

export type SecretGroups = ReturnType<typeof createSecretGroups>;
