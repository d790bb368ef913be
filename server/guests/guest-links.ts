// Guest links to calls (docs/behaviour.md §10.40). A link belongs to a call's room (`conv-<id>` or a named room of
// the /calls page); a guest knocks with a name and gets a knock id and a secret; the room's deciders (the
// conversation's members, or its owner and admins when the group chose so; a named room's link maker) let them in,
// turn them away or remove them. Everything a guest may do is checked against the database on each request, so a
// decision or a revocation holds on every server process at once; the media server drops a removed guest through
// mediaRooms (published to the other processes too). An admission ends with the call: when no one but guests is left
// in the room for GUEST.callEndGraceMs, its admitted guests' knocks move to `ended` (the link stays for a later call).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  CALL_OVER,
  GUEST,
  type GuestLink,
  GuestSocketAuth,
  guestIdentity,
  isGuestIdentity,
  type KnockState,
} from '../../src/contract/guests';
import type { Clock, ClockTimer } from '../clock';
import { memberIds, memberOf } from '../conversations/membership';
import { isSecret } from '../conversations/secret-flag';
import type { Database } from '../db/database';
import type { CallGuestLinksTable, CallGuestsTable } from '../db/schema';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors';
import type { MediaRooms } from '../livekit/media-rooms';
import type { GuestSockets } from '../realtime/gateway';
import type { RealtimeHub } from '../realtime/hub';

export const GUESTS_OFF = 'Гостевые ссылки на звонки отключены администратором';
export const LINK_NOT_FOUND = 'Ссылка не найдена';
export const LINK_GONE = 'Ссылка больше не действует';
/** A secret chat's link is made with the group's epoch, in which the members derive its secret. */
export const SECRET_NEEDS_EPOCH = 'Для звонка секретного чата укажите эпоху группы: ключ ссылки выводится из неё';
/** A knock at a secret chat's link without the guest's key and its MAC (the link was opened without its fragment). */
export const SECRET_NEEDS_KEY = 'Звонок зашифрован: откройте ссылку целиком, вместе с частью после «#»';
/** «Впустить» at a secret chat's link without the call key sealed to the guest. */
export const SECRET_NEEDS_SEALED =
  'Впустить гостя в зашифрованный звонок можно только с ключом, зашифрованным для него';
export const KNOCK_NOT_IN = 'Гостя нет в звонке';
export const KNOCK_NOT_FOUND = 'Запрос на вход не найден';
export const ADMINS_ONLY_GUESTS = 'В этой группе гостей впускают только владелец и администраторы';
export const KNOCKS_FLOOD = 'По этой ссылке сейчас слишком много желающих войти. Попробуйте через минуту.';
export const NOT_WAITING = 'Гость уже не ждёт';
export const NOT_YET = 'Вас ещё не впустили';
export const KEY_REQUEST_PLAIN = 'Ключ звонка нужен только гостю зашифрованного звонка';
export const KEY_REQUEST_SOON = 'Ключ звонка уже запрошен: подождите несколько секунд';
const REFUSED: Record<Exclude<KnockState, 'waiting' | 'admitted'>, [number, string]> = {
  denied: [403, 'Вас не впустили в звонок'],
  removed: [403, 'Вас удалили из звонка'],
  gone: [410, LINK_GONE],
  ended: [410, CALL_OVER],
};

const CONVERSATION_ROOM = /^conv-(.+)$/;
/**
 * A secret chat's link keeps in `public_key` the MLS epoch its secret was derived in (`e2ee:<epoch>`), never a key; a
 * knock at it keeps the guest's public key and its MAC (`<key>.<mac>`), both public values.
 */
const E2EE_LINK = /^e2ee:(\d+)$/;
const linkEpoch = (link: Pick<LinkRow, 'public_key'>): number | null => {
  const m = E2EE_LINK.exec(link.public_key ?? '');
  return m ? Number(m[1]) : null;
};
const knockKey = (knock: Pick<KnockRow, 'public_key'>) => {
  const [publicKey, mac] = (knock.public_key ?? '').split('.');
  return publicKey && mac ? { publicKey, mac } : null;
};
const iso = (ms: number) => new Date(ms).toISOString();
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

type LinkRow = CallGuestLinksTable;
type KnockRow = CallGuestsTable;

export interface GuestLinksDeps {
  db: Database;
  clock: Clock;
  realtime: Pick<RealtimeHub, 'toUsers'> & { guests: Pick<GuestSockets, 'toGuest'> };
  mediaRooms: Pick<MediaRooms, 'removeFromRoom'>;
  /** «Гостевые ссылки на звонки» of the server's settings. */
  enabled(): Promise<boolean>;
  /** What happened to guests, for /metrics. */
  count(event: 'knocked' | 'admitted' | 'denied' | 'removed' | 'refused' | 'ended'): void;
  /** A failure in the background (the end of a call noticed by a timer). */
  logError(err: unknown, what: string): void;
}

export function createGuestLinks(deps: GuestLinksDeps) {
  const { db, clock, realtime, mediaRooms } = deps;
  const now = () => clock.now();

  const conversationOf = (room: string) => CONVERSATION_ROOM.exec(room)?.[1] ?? null;

  async function requireEnabled() {
    if (!(await deps.enabled())) throw forbidden(GUESTS_OFF);
  }

  async function adminsOnly(conversationId: string | null): Promise<boolean> {
    if (!conversationId) return false;
    const c = await db
      .selectFrom('conversations')
      .select('guests_admins_only')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return Number(c?.guests_admins_only ?? 0) === 1;
  }

  /** Who may see the room's links and make one: a member of the conversation; for a named room, anyone signed in. */
  async function requireRoomAccess(userId: string, room: string) {
    const conversationId = conversationOf(room);
    if (conversationId) await memberOf(db, conversationId, userId);
    return conversationId;
  }

  /** Whether the user lets guests in at this link's door (404 for a stranger to the conversation). */
  async function requireDecider(userId: string, link: LinkRow) {
    if (!link.conversation_id) {
      if (link.created_by !== userId) throw notFound(KNOCK_NOT_FOUND);
      return;
    }
    const me = await memberOf(db, link.conversation_id, userId);
    if ((await adminsOnly(link.conversation_id)) && me.role !== 'OWNER' && me.role !== 'ADMIN')
      throw forbidden(ADMINS_ONLY_GUESTS);
  }

  /** The users who hear that guests wait in the room. */
  async function decidersOf(room: string): Promise<string[]> {
    const conversationId = conversationOf(room);
    if (!conversationId) {
      const makers = await db
        .selectFrom('call_guest_links')
        .select('created_by')
        .distinct()
        .where('room', '=', room)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .execute();
      return makers.map((m) => m.created_by);
    }
    const ids = await memberIds(db, conversationId);
    if (!(await adminsOnly(conversationId))) return [...ids];
    const managers = await db
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .where('role', 'in', ['OWNER', 'ADMIN'])
      .execute();
    return managers.map((m) => m.user_id);
  }

  const usable = (link: LinkRow) => link.revoked_at === null && Date.parse(link.expires_at) > now();

  async function linkByCode(code: string): Promise<LinkRow> {
    const link = await db.selectFrom('call_guest_links').selectAll().where('code', '=', code).executeTakeFirst();
    if (!link) throw notFound(LINK_NOT_FOUND);
    return link;
  }

  async function usableLink(code: string): Promise<LinkRow> {
    await requireEnabled();
    const link = await linkByCode(code);
    if (!usable(link)) throw new HttpError(410, LINK_GONE);
    return link;
  }

  async function toLinks(rows: LinkRow[]): Promise<GuestLink[]> {
    if (!rows.length) return [];
    const users = await db
      .selectFrom('users')
      .select(['id', 'display_name'])
      .where('id', 'in', [...new Set(rows.map((r) => r.created_by))])
      .execute();
    const names = new Map(users.map((u) => [u.id, u.display_name]));
    return rows.map((r) => ({
      code: r.code,
      room: r.room,
      conversationId: r.conversation_id,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      createdBy: { id: r.created_by, displayName: names.get(r.created_by) ?? '' },
      ...(linkEpoch(r) !== null ? { epoch: linkEpoch(r) as number } : {}),
    }));
  }

  async function waitingIn(room: string) {
    const rows = await db
      .selectFrom('call_guests as g')
      .innerJoin('call_guest_links as l', 'l.code', 'g.link_code')
      .select(['g.id', 'g.name', 'g.created_at', 'g.public_key', 'l.code', 'l.public_key as link_key'])
      .where('l.room', '=', room)
      .where('g.state', '=', 'waiting')
      .where('l.revoked_at', 'is', null)
      .where('l.expires_at', '>', iso(now()))
      .orderBy('g.created_at')
      .execute();
    return rows.map((r) => {
      const epoch = linkEpoch({ public_key: r.link_key });
      const key = knockKey(r);
      return {
        id: r.id,
        name: r.name,
        knockedAt: r.created_at,
        ...(epoch !== null && key ? { e2ee: { code: r.code, epoch, ...key } } : {}),
      };
    });
  }

  /** «Ссылки на звонки» of the room read their list again: its members; a named room's, the link's maker. */
  async function linksChanged(link: Pick<LinkRow, 'room' | 'conversation_id' | 'created_by'>) {
    const to = link.conversation_id ? await memberIds(db, link.conversation_id) : [link.created_by];
    realtime.toUsers(to, 'guest:links', { room: link.room });
  }

  /** Tells the room's deciders who waits now; `ring` for new knocks. */
  async function announce(room: string, ring: boolean) {
    const to = await decidersOf(room);
    realtime.toUsers(to, 'guest:waiting', {
      room,
      conversationId: conversationOf(room),
      guests: await waitingIn(room),
      ring,
    });
  }

  // Links whose next ring is due on this process (a knock came within the minute after the last ring).
  const pendingRings = new Map<string, ClockTimer>();
  // When each knock last asked for its call key (this process), for the rate limit.
  const keyRequests = new Map<string, number>();

  /**
   * Rings the deciders for a new knock at most once per GUEST.ringEveryMs per link, on any process: the ring is
   * claimed in the database; a knock within the window is announced when it ends.
   */
  async function ring(code: string) {
    const at = now();
    const claimed = await db
      .updateTable('call_guest_links')
      .set({ rung_at: iso(at) })
      .where('code', '=', code)
      .where((eb) => eb.or([eb('rung_at', 'is', null), eb('rung_at', '<=', iso(at - GUEST.ringEveryMs))]))
      .executeTakeFirst();
    const link = await linkByCode(code);
    if (Number(claimed.numUpdatedRows) > 0) return announce(link.room, true);
    if (pendingRings.has(code) || !link.rung_at) return;
    const wait = Math.max(0, Date.parse(link.rung_at) + GUEST.ringEveryMs - at);
    const timer = clock.setTimeout(() => {
      pendingRings.delete(code);
      void ringIfWaiting(code).catch(() => {});
    }, wait);
    timer.unref();
    pendingRings.set(code, timer);
  }

  /** At the window's end: ring again only if a guest still waits at this link. */
  async function ringIfWaiting(code: string) {
    const waiting = await db
      .selectFrom('call_guests')
      .select('id')
      .where('link_code', '=', code)
      .where('state', '=', 'waiting')
      .executeTakeFirst();
    if (waiting) await ring(code);
  }

  async function knockBySecret(knockId: string, secret: string): Promise<KnockRow> {
    const knock = await db.selectFrom('call_guests').selectAll().where('id', '=', knockId).executeTakeFirst();
    const given = Buffer.from(hashOf(secret));
    if (!knock || !timingSafeEqual(Buffer.from(knock.secret_hash), given)) throw notFound(KNOCK_NOT_FOUND);
    return knock;
  }

  /** Moves a knock from one of `from` to `to`; false when another decision came first. */
  async function move(knockId: string, from: KnockState[], to: KnockState, by: string | null) {
    const r = await db
      .updateTable('call_guests')
      .set({ state: to, decided_at: iso(now()), decided_by: by })
      .where('id', '=', knockId)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  // Rooms where no one but guests is left: the timer that ends its guests' admission, and the guests there now.
  type Ending = { timer: ClockTimer; guests: readonly string[] };
  const callEnding = new Map<string, Ending>();
  // Rooms with someone other than guests in them now (a member may come back while the timer's queries run).
  const occupied = new Set<string>();

  /**
   * The call in the room is over: its admitted guests are let out, told, and dropped by the media server, with any
   * guest still there on a token from before (guests alone do not keep a room going).
   */
  async function endCall(room: string, present: readonly string[]) {
    const admittedHere = await db
      .selectFrom('call_guests as g')
      .innerJoin('call_guest_links as l', 'l.code', 'g.link_code')
      .select('g.id')
      .where('l.room', '=', room)
      .where('g.state', '=', 'admitted')
      .execute();
    const ended: string[] = [];
    for (const g of admittedHere) {
      if (occupied.has(room)) break;
      if (await move(g.id, ['admitted'], 'ended', null)) ended.push(g.id);
    }
    // Told before the media server drops them, so their page says the call is over rather than that they left.
    for (const id of ended) {
      deps.count('ended');
      realtime.guests.toGuest(id, 'guest:state', { state: 'ended' });
    }
    const stray = occupied.has(room) ? [] : present;
    mediaRooms.removeFromRoom(room, [...new Set([...ended.map(guestIdentity), ...stray])]);
  }

  /** 409 while the knock still waits; the refusal that fits any state but admitted. */
  function requireAdmitted(knock: Pick<KnockRow, 'state'>) {
    const state = knock.state as KnockState;
    if (state === 'waiting') throw conflict(NOT_YET);
    if (state !== 'admitted') {
      const [status, message] = REFUSED[state];
      throw new HttpError(status, message);
    }
  }

  async function knockWithLink(knockId: string) {
    const knock = await db.selectFrom('call_guests').selectAll().where('id', '=', knockId).executeTakeFirst();
    if (!knock) throw notFound(KNOCK_NOT_FOUND);
    return { knock, link: await linkByCode(knock.link_code) };
  }

  return {
    async create(userId: string, body: { room: string; hours: number; epoch?: number }) {
      await requireEnabled();
      const room = body.room.trim();
      const conversationId = await requireRoomAccess(userId, room);
      // A secret chat's call is encrypted end to end: its link names the epoch in which the members' devices derive
      // the link's secret (which never comes here); a plain call's link names none.
      const secret = conversationId !== null && (await isSecret(db, conversationId));
      if (secret && body.epoch === undefined) throw badRequest(SECRET_NEEDS_EPOCH);
      const at = now();
      const row: LinkRow = {
        code: randomBytes(18).toString('base64url'),
        room,
        conversation_id: conversationId,
        created_by: userId,
        created_at: iso(at),
        expires_at: iso(at + body.hours * 3_600_000),
        revoked_at: null,
        rung_at: null,
        public_key: secret ? `e2ee:${body.epoch}` : null,
      };
      await db.insertInto('call_guest_links').values(row).execute();
      await linksChanged(row);
      const [link] = await toLinks([row]);
      return { link };
    },

    /** «Ссылки на звонки»: the room's links that still work, newest first (a named room's: one's own). */
    async list(userId: string, room: string) {
      const conversationId = await requireRoomAccess(userId, room);
      let q = db
        .selectFrom('call_guest_links')
        .selectAll()
        .where('room', '=', room)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', iso(now()));
      if (!conversationId) q = q.where('created_by', '=', userId);
      const rows = await q.orderBy('created_at', 'desc').execute();
      return {
        links: await toLinks(rows),
        adminsOnly: await adminsOnly(conversationId),
        enabled: await deps.enabled(),
      };
    },

    /** The link's maker or whoever decides at its door revokes it: its guests leave the call at once. */
    async revoke(userId: string, code: string) {
      const link = await linkByCode(code);
      if (link.created_by !== userId) await requireDecider(userId, link);
      const revoked = await db
        .updateTable('call_guest_links')
        .set({ revoked_at: iso(now()) })
        .where('code', '=', code)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const guests = await db
        .selectFrom('call_guests')
        .select(['id', 'state'])
        .where('link_code', '=', code)
        .where('state', 'in', ['waiting', 'admitted'])
        .execute();
      await db
        .updateTable('call_guests')
        .set({ state: 'gone', decided_at: iso(now()), decided_by: userId })
        .where('link_code', '=', code)
        .where('state', 'in', ['waiting', 'admitted'])
        .execute();
      // Told before the media server drops them, so their page says why rather than that they left.
      for (const g of guests) realtime.guests.toGuest(g.id, 'guest:state', { state: 'gone' });
      mediaRooms.removeFromRoom(
        link.room,
        guests.filter((g) => g.state === 'admitted').map((g) => guestIdentity(g.id)),
      );
      if (guests.some((g) => g.state === 'waiting')) await announce(link.room, false);
      if (Number(revoked.numUpdatedRows) > 0) await linksChanged(link);
      return { ok: true as const };
    },

    /** A group's «Кто впускает гостей»: its owner and admins choose. */
    async setAdmission(userId: string, conversationId: string, only: boolean) {
      const me = await memberOf(db, conversationId, userId);
      const c = await db
        .selectFrom('conversations')
        .select('is_group')
        .where('id', '=', conversationId)
        .executeTakeFirst();
      if (Number(c?.is_group) !== 1) throw badRequest('Выбрать, кто впускает гостей, можно только в группе');
      if (me.role !== 'OWNER' && me.role !== 'ADMIN')
        throw forbidden('Выбрать, кто впускает гостей, могут владелец и администраторы');
      await db
        .updateTable('conversations')
        .set({ guests_admins_only: only ? 1 : 0 })
        .where('id', '=', conversationId)
        .execute();
      return { adminsOnly: only };
    },

    /** Guests waiting at the room's door, for a decider who joined the call after they knocked. */
    async waiting(userId: string, room: string) {
      const conversationId = await requireRoomAccess(userId, room);
      const deciders = await decidersOf(room);
      if (!deciders.includes(userId)) {
        if (conversationId) throw forbidden(ADMINS_ONLY_GUESTS);
        return { guests: [] };
      }
      return { guests: await waitingIn(room) };
    },

    /** What the guest's page shows: who invites, to which group, until when. */
    async info(code: string) {
      const link = await usableLink(code);
      const host = await db
        .selectFrom('users')
        .select('display_name')
        .where('id', '=', link.created_by)
        .executeTakeFirst();
      let title: string | null = null;
      if (link.conversation_id) {
        const c = await db
          .selectFrom('conversations')
          .select(['title', 'is_group'])
          .where('id', '=', link.conversation_id)
          .executeTakeFirst();
        if (Number(c?.is_group) === 1) title = c?.title ?? null;
      }
      return {
        title,
        host: host?.display_name ?? '',
        expiresAt: link.expires_at,
        ...(linkEpoch(link) !== null ? { encrypted: true } : {}),
      };
    },

    async knock(code: string, body: { name: string; publicKey?: string; keyMac?: string }) {
      const link = await usableLink(code);
      // At a secret chat's link the members admit only a key its MAC vouches for: both must come.
      const encrypted = linkEpoch(link) !== null;
      if (encrypted && (!body.publicKey || !body.keyMac)) throw badRequest(SECRET_NEEDS_KEY);
      const at = now();
      const recent = await db
        .selectFrom('call_guests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('link_code', '=', code)
        .where('created_at', '>', iso(at - 60_000))
        .executeTakeFirstOrThrow();
      const waiting = await db
        .selectFrom('call_guests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('link_code', '=', code)
        .where('state', '=', 'waiting')
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= GUEST.knocksPerMinute || Number(waiting.n) >= GUEST.waitingMax) {
        deps.count('refused');
        throw new HttpError(429, KNOCKS_FLOOD);
      }
      const secret = randomBytes(32).toString('base64url');
      const knockId = randomBytes(12).toString('base64url');
      await db
        .insertInto('call_guests')
        .values({
          id: knockId,
          link_code: code,
          name: body.name,
          secret_hash: hashOf(secret),
          state: 'waiting',
          created_at: iso(at),
          decided_at: null,
          decided_by: null,
          public_key: encrypted ? `${body.publicKey}.${body.keyMac}` : null,
        })
        .execute();
      deps.count('knocked');
      await ring(link.code);
      return { knockId, secret, state: 'waiting' as const };
    },

    /** The guest gives up waiting (closed the page, «Отменить»). */
    async leave(knockId: string, secret: string) {
      const knock = await knockBySecret(knockId, secret);
      if (await move(knockId, ['waiting'], 'gone', null)) {
        const link = await linkByCode(knock.link_code);
        await announce(link.room, false);
      }
      return { ok: true as const };
    },

    /** The admitted guest's right to a media token: the knock, its link and the server's setting all hold now. */
    async admitted(knockId: string, secret: string) {
      await requireEnabled();
      const knock = await knockBySecret(knockId, secret);
      const link = await linkByCode(knock.link_code);
      if (!usable(link)) throw new HttpError(410, LINK_GONE);
      requireAdmitted(knock);
      return { knock, link };
    },

    /**
     * `sealed` (a secret chat's link, required there): the call key sealed to the guest's key by the admitting
     * device; relayed to that guest's socket only, never stored or logged.
     */
    async decide(userId: string, knockId: string, decision: 'admit' | 'deny' | 'remove', sealed?: string) {
      const { knock, link } = await knockWithLink(knockId);
      await requireDecider(userId, link);
      if (decision === 'admit') {
        if (!usable(link)) throw new HttpError(410, LINK_GONE);
        const encrypted = linkEpoch(link) !== null;
        if (encrypted && !sealed) throw badRequest(SECRET_NEEDS_SEALED);
        if (!(await move(knockId, ['waiting'], 'admitted', userId))) throw conflict(NOT_WAITING);
        deps.count('admitted');
        realtime.guests.toGuest(
          knockId,
          'guest:state',
          encrypted && sealed ? { state: 'admitted', sealed } : { state: 'admitted' },
        );
      } else if (decision === 'deny') {
        if (!(await move(knockId, ['waiting'], 'denied', userId))) throw conflict(NOT_WAITING);
        deps.count('denied');
        realtime.guests.toGuest(knockId, 'guest:state', { state: 'denied' });
      } else {
        if (!(await move(knockId, ['admitted', 'waiting'], 'removed', userId)))
          throw conflict('Гостя уже нет в звонке');
        // The media token is refused from now on; told first (the page says why), the media server drops the guest
        // on every process.
        realtime.guests.toGuest(knockId, 'guest:state', { state: 'removed' });
        mediaRooms.removeFromRoom(link.room, [guestIdentity(knock.id)]);
        deps.count('removed');
      }
      await announce(link.room, false);
    },

    /**
     * A newer epoch's call key for a guest in a secret chat's call (the group re-keyed while they are in it), from a
     * decider of the link: relayed to that guest's socket only.
     */
    async relayKey(userId: string, knockId: string, sealed: string) {
      const { knock, link } = await knockWithLink(knockId);
      await requireDecider(userId, link);
      if (linkEpoch(link) === null) throw badRequest('Ключ передаётся только гостю зашифрованного звонка');
      if (knock.state !== 'admitted' || !usable(link)) throw conflict(KNOCK_NOT_IN);
      realtime.guests.toGuest(knockId, 'guest:key', { sealed });
    },

    /**
     * An admitted guest of a secret chat's call asks for the call key it lacks (its socket was away when it was let
     * in, or when a newer key came): the room's deciders hear the guest's public key and MAC, and a device of theirs
     * in the call seals the key afresh (`guest:key`). Nothing is kept but when the knock last asked.
     */
    async requestKey(knockId: string) {
      const { knock, link } = await knockWithLink(knockId);
      const epoch = linkEpoch(link);
      const key = knockKey(knock);
      if (epoch === null || !key) throw badRequest(KEY_REQUEST_PLAIN);
      if (!usable(link)) throw new HttpError(410, LINK_GONE);
      requireAdmitted(knock);
      const at = now();
      if (at - (keyRequests.get(knockId) ?? -Infinity) < GUEST.keyRequestEveryMs)
        throw new HttpError(429, KEY_REQUEST_SOON);
      if (keyRequests.size > 1000)
        for (const [id, t] of keyRequests) if (at - t >= GUEST.keyRequestEveryMs) keyRequests.delete(id);
      keyRequests.set(knockId, at);
      realtime.toUsers(await decidersOf(link.room), 'guest:key-request', {
        room: link.room,
        knockId,
        e2ee: { code: link.code, epoch, ...key },
      });
    },

    /**
     * The guest socket's handshake: its knock id when the secret is right and the knock still waits, is in, or its
     * call is over (a page that reconnects then learns so, not that the link died).
     */
    async authorizeSocket(auth: unknown): Promise<string | null> {
      const parsed = GuestSocketAuth.safeParse(auth);
      if (!parsed.success) return null;
      try {
        const knock = await knockBySecret(parsed.data.knockId, parsed.data.secret);
        return ['waiting', 'admitted', 'ended'].includes(knock.state) ? knock.id : null;
      } catch (err) {
        if (err instanceof HttpError) return null;
        throw err;
      }
    },

    /** Where the knock stands, for a guest socket that has just connected. */
    async stateOf(knockId: string): Promise<KnockState> {
      const knock = await db.selectFrom('call_guests').select('state').where('id', '=', knockId).executeTakeFirst();
      return (knock?.state as KnockState | undefined) ?? 'gone';
    },

    /**
     * Who is in a room of this process's media server, after a join or leave. With no one but guests there (or no
     * one), the call ends after GUEST.callEndGraceMs unless someone else comes back first.
     */
    roomPeople(room: string, identities: readonly string[]) {
      const ending = callEnding.get(room);
      if (identities.some((id) => !isGuestIdentity(id))) {
        occupied.add(room);
        if (ending) clock.clearTimeout(ending.timer);
        callEnding.delete(room);
        return;
      }
      occupied.delete(room);
      if (ending) {
        ending.guests = identities;
        return;
      }
      const next: Ending = {
        guests: identities,
        timer: clock.setTimeout(() => {
          callEnding.delete(room);
          endCall(room, next.guests).catch((err: unknown) => deps.logError(err, 'guests at the end of a call'));
        }, GUEST.callEndGraceMs),
      };
      next.timer.unref();
      callEnding.set(room, next);
    },

    close() {
      for (const timer of pendingRings.values()) clock.clearTimeout(timer);
      for (const { timer } of callEnding.values()) clock.clearTimeout(timer);
      pendingRings.clear();
      callEnding.clear();
      occupied.clear();
    },
  };
}

export type GuestLinks = ReturnType<typeof createGuestLinks>;
