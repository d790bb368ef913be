// A group's life after it was created: adding and removing members, roles, leaving, title and picture, and
// «История для новых участников» (docs/groups.md). Every change runs in one transaction that first reads the actor's role from the database (not
// the cache), so two admins removing the same member, or a member leaving while being removed, end in one state
// with one SYSTEM entry: the statement that changed nothing writes nothing.
//
// After the commit: this process and the others forget the conversation's members (membership.ts), the sockets
// of whoever lost access leave its room on every process, then they hear conversation:removed and the members
// conversation:updated, and the SYSTEM entry goes out as message:new to the sockets that have the group open; in a
// secret chat the members hear secret:pending, so that a device of theirs adds or removes the devices in its group.

import type { Conversation, Message, ParticipantRole } from '../../src/contract/entities';
import { LIMITS } from '../../src/contract/limits';
import type { Database } from '../db/database';
import { allInDirectory, directoryOn } from '../directory/directory';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import type { MediaRooms } from '../livekit/media-rooms';
import type { RealtimeHub } from '../realtime/hub';
import { refuseSaved } from '../saved/saved-chat';
import { loadConversation } from './conversation-view';
import { joinPoint } from './history-visibility';
import type { ConversationListCache } from './list-cache';
import { CONVERSATION_NOT_FOUND, forgetMembers } from './membership';
import { isSecret } from './secret-flag';
import { writeSystemEntry as writeEntry } from './system-entries';

export const NOT_A_GROUP = 'Это действие доступно только в групповом чате';
export const ADMINS_ONLY = 'Это могут только владелец и администраторы группы';
export const OWNER_ONLY = 'Роли меняет только владелец группы';
export const MEMBER_NOT_FOUND = 'Участник не найден';
export const FRIENDS_ONLY = 'В беседу можно добавить только друзей';
export const INVITE_NOT_FOUND = 'Ссылка-приглашение не найдена';
export const INVITE_GONE = 'Ссылка-приглашение больше не действует';
/** A closed group, a secret chat or no group at all: one answer, so that a closed group's existence stays unknown. */
export const OPEN_GROUP_NOT_FOUND = 'Открытая группа не найдена';
const SECRET_NOT_OPEN = 'Секретный чат не может быть открытым';
export const SECRET_HISTORY = 'В секретных чатах новые участники видят только сообщения после вступления';
const CANNOT_REMOVE = 'Администратор не может удалить владельца или другого администратора';
const OWNER_STAYS = 'Владельца нельзя удалить из группы';
const NOT_YOURSELF = 'Свою роль изменить нельзя: передайте права владельца другому участнику';
const TOO_MANY = `В группе может быть не больше ${LIMITS.groupParticipantsMax} участников`;
const TOO_MANY_SECRET = `В секретном чате может быть не больше ${LIMITS.secretMembersMax} участников`;

export interface GroupDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers' | 'toConversation' | 'leaveConversation' | 'isOnline'>;
  /** Whoever lost access leaves the conversation's call too. */
  mediaRooms?: Pick<MediaRooms, 'removeFromCall'>;
  /** Tells the other server processes that the conversation's members changed (null on a single process). */
  membersChanged: ((conversationId: string) => void) | null;
}

const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);
const canManage = (role: string) => role === 'OWNER' || role === 'ADMIN';

/** What a committed change did, for the announcements after it. */
interface Change {
  /** The SYSTEM entry it wrote, if any. */
  entry: Message | null;
  /** Who lost the conversation. */
  removed: string[];
  /** Who gained it. */
  added: string[];
  /** The group was deleted (its last member left). */
  ended: boolean;
}

const nothing = (): Change => ({ entry: null, removed: [], added: [], ended: false });

export function createGroups({ db, lists, realtime, membersChanged, mediaRooms }: GroupDeps) {
  type Tx = Parameters<Parameters<ReturnType<Database['transaction']>['execute']>[0]>[0];

  /** The group and the actor's role in it, read inside the transaction; 404 for a non-member. */
  async function actorIn(trx: Tx, conversationId: string, actorId: string) {
    const row = await trx
      .selectFrom('conversation_members as cm')
      .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
      .select(['cm.role', 'c.direct_key', 'c.title', 'c.avatar_url', 'c.secret', 'c.open'])
      .where('cm.conversation_id', '=', conversationId)
      .where('cm.user_id', '=', actorId)
      .executeTakeFirst();
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    if (row.direct_key !== null) throw badRequest(NOT_A_GROUP);
    return row;
  }

  async function roleOf(trx: Tx, conversationId: string, userId: string): Promise<string | undefined> {
    const row = await trx
      .selectFrom('conversation_members')
      .select('role')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  /** Passes ownership on when the owner goes: the longest-serving admin, else the longest-serving member. */
  async function passOwnership(trx: Tx, conversationId: string): Promise<void> {
    const heir = await trx
      .selectFrom('conversation_members')
      .select('user_id')
      .where('conversation_id', '=', conversationId)
      .orderBy((eb) => eb.case().when('role', '=', 'ADMIN').then(0).else(1).end())
      .orderBy('joined_at')
      .orderBy('user_id')
      .executeTakeFirst();
    if (heir)
      await trx
        .updateTable('conversation_members')
        .set({ role: 'OWNER' })
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', heir.user_id)
        .execute();
  }

  /** Removes `userId` (it may be the actor: leaving); false when they were no longer a member. */
  async function dropMember(trx: Tx, conversationId: string, userId: string): Promise<'gone' | 'removed' | 'ended'> {
    const role = await roleOf(trx, conversationId, userId);
    const res = await trx
      .deleteFrom('conversation_members')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) return 'gone';
    const left = await trx
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    if (Number(left.n) === 0) {
      await trx.deleteFrom('conversations').where('id', '=', conversationId).execute();
      return 'ended';
    }
    if (role === 'OWNER') await passOwnership(trx, conversationId);
    return 'removed';
  }

  /** After the commit: caches, sockets, events. Returns the conversation as `actorId` sees it now. */
  async function announce(conversationId: string, actorId: string, change: Change): Promise<Conversation | null> {
    forgetMembers(db, conversationId);
    membersChanged?.(conversationId);
    if (change.removed.length) {
      // Before anything else goes out: no message:new of the group reaches them after this.
      realtime.leaveConversation(change.removed, conversationId);
      mediaRooms?.removeFromCall(conversationId, change.removed);
      lists.changed(change.removed);
      realtime.toUsers(change.removed, 'conversation:removed', { conversationId });
    }
    if (change.ended) return null;
    const members = (
      await db
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .execute()
    ).map((r) => r.user_id);
    if (!members.length) return null;
    lists.changed(members, conversationId);
    const viewer = members.includes(actorId) ? actorId : members[0];
    const entry = await loadConversation({ db, realtime }, viewer, conversationId);
    if (!entry) return null;
    const conversation = entry.conversation;
    const added = new Set(change.added);
    realtime.toUsers(
      members.filter((m) => !added.has(m)),
      'conversation:updated',
      { conversation },
    );
    if (added.size) realtime.toUsers([...added], 'conversations:new', { conversation });
    if (change.entry) realtime.toConversation(conversationId, 'message:new', { message: change.entry });
    // A secret chat's group of devices must follow: a device of the members commits the change (server/secret/).
    if ((change.added.length || change.removed.length) && (await isSecret(db, conversationId)))
      realtime.toUsers(members, 'secret:pending', { conversationIds: [conversationId] });
    return members.includes(actorId) ? conversation : null;
  }

  async function addMembers(actorId: string, conversationId: string, userIds: readonly string[]) {
    const wanted = [...new Set(userIds)].filter((id) => id !== actorId);
    const change = await db.transaction().execute(async (trx) => {
      const me = await actorIn(trx, conversationId, actorId);
      if (!canManage(me.role)) throw forbidden(ADMINS_ONLY);
      if (!wanted.length) return nothing();
      const known = await trx.selectFrom('users').select('id').where('id', 'in', wanted).execute();
      if (known.length !== wanted.length) throw notFound('Пользователь не найден');
      const friends = await trx
        .selectFrom('contacts')
        .select('pair_key')
        .where(
          'pair_key',
          'in',
          wanted.map((id) => pairKey(actorId, id)),
        )
        .where('status', '=', 'ACCEPTED')
        .execute();
      // With «Каталог участников» on, anyone the actor finds there may be added too (docs/behaviour.md §10.25).
      if (friends.length !== wanted.length) {
        const friendIds = new Set(friends.map((f) => f.pair_key));
        const others = wanted.filter((id) => !friendIds.has(pairKey(actorId, id)));
        if (!(await allInDirectory(trx, actorId, others))) throw forbidden(FRIENDS_ONLY);
      }
      const present = await trx
        .selectFrom('conversation_members')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .execute();
      const already = new Set(present.map((r) => r.user_id));
      const fresh = wanted.filter((id) => !already.has(id));
      if (!fresh.length) return nothing();
      if (already.size + fresh.length > LIMITS.groupParticipantsMax) throw badRequest(TOO_MANY);
      if (Number(me.secret) === 1 && already.size + fresh.length > LIMITS.secretMembersMax)
        throw badRequest(TOO_MANY_SECRET);
      // Where they start to see and to read: the group's «История для новых участников».
      const from = await joinPoint(trx, conversationId);
      const now = new Date().toISOString();
      const inserted = await trx
        .insertInto('conversation_members')
        .values(
          fresh.map((user_id) => ({
            conversation_id: conversationId,
            user_id,
            joined_at: now,
            role: 'MEMBER',
            ...from,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('user_id')
        .execute();
      const added = inserted.map((r) => r.user_id);
      if (!added.length) return nothing();
      const entry = await writeEntry(trx, conversationId, actorId, 'added', added);
      return { ...nothing(), entry, added };
    });
    return { conversation: await announce(conversationId, actorId, change) };
  }

  async function removeMember(actorId: string, conversationId: string, userId: string) {
    if (userId === actorId) return leave(actorId, conversationId);
    const change = await db.transaction().execute(async (trx) => {
      const me = await actorIn(trx, conversationId, actorId);
      if (!canManage(me.role)) throw forbidden(ADMINS_ONLY);
      const theirs = await roleOf(trx, conversationId, userId);
      // Someone removed a moment ago by another admin: done already, and nothing more is written.
      if (theirs === undefined) return nothing();
      if (theirs === 'OWNER') throw forbidden(OWNER_STAYS);
      if (me.role === 'ADMIN' && theirs === 'ADMIN') throw forbidden(CANNOT_REMOVE);
      if ((await dropMember(trx, conversationId, userId)) === 'gone') return nothing();
      const entry = await writeEntry(trx, conversationId, actorId, 'removed', [userId]);
      return { ...nothing(), entry, removed: [userId] };
    });
    return { conversation: await announce(conversationId, actorId, change) };
  }

  async function leave(actorId: string, conversationId: string) {
    await refuseSaved(db, conversationId);
    const change = await db.transaction().execute(async (trx) => {
      await actorIn(trx, conversationId, actorId);
      const outcome = await dropMember(trx, conversationId, actorId);
      if (outcome === 'gone') return nothing();
      if (outcome === 'ended') return { ...nothing(), removed: [actorId], ended: true };
      const entry = await writeEntry(trx, conversationId, actorId, 'left');
      return { ...nothing(), entry, removed: [actorId] };
    });
    await announce(conversationId, actorId, change);
    return { conversation: null };
  }

  async function setRole(actorId: string, conversationId: string, userId: string, role: ParticipantRole) {
    const change = await db.transaction().execute(async (trx) => {
      const me = await actorIn(trx, conversationId, actorId);
      if (me.role !== 'OWNER') throw forbidden(OWNER_ONLY);
      if (userId === actorId) throw badRequest(NOT_YOURSELF);
      const theirs = await roleOf(trx, conversationId, userId);
      if (theirs === undefined) throw notFound(MEMBER_NOT_FOUND);
      if (theirs === role) return nothing();
      const set = (id: string, r: ParticipantRole) =>
        trx
          .updateTable('conversation_members')
          .set({ role: r })
          .where('conversation_id', '=', conversationId)
          .where('user_id', '=', id)
          .execute();
      if (role === 'OWNER') await set(actorId, 'ADMIN');
      await set(userId, role);
      return nothing();
    });
    return { conversation: await announce(conversationId, actorId, change) };
  }

  async function update(
    actorId: string,
    conversationId: string,
    body: { title?: string; avatarUrl?: string | null; open?: boolean },
  ) {
    const change = await db.transaction().execute(async (trx) => {
      const me = await actorIn(trx, conversationId, actorId);
      if (!canManage(me.role)) throw forbidden(ADMINS_ONLY);
      const title = body.title !== undefined && body.title !== me.title ? body.title : undefined;
      const avatar = body.avatarUrl !== undefined && body.avatarUrl !== me.avatar_url ? body.avatarUrl : undefined;
      const open = body.open !== undefined && body.open !== (Number(me.open) === 1) ? body.open : undefined;
      if (open !== undefined) {
        if (Number(me.secret) === 1) throw badRequest(SECRET_NOT_OPEN);
        await trx
          .updateTable('conversations')
          .set({ open: open ? 1 : 0 })
          .where('id', '=', conversationId)
          .execute();
      }
      // «Открытая» shows in «Информация» by itself: the members hear conversation:updated, no entry is written.
      if (title === undefined && avatar === undefined) return nothing();
      await trx
        .updateTable('conversations')
        .set({
          ...(title !== undefined ? { title } : {}),
          ...(avatar !== undefined ? { avatar_url: avatar } : {}),
        })
        .where('id', '=', conversationId)
        .execute();
      // Both at once read as the rename; the picture shows by itself in the header.
      const entry =
        title !== undefined
          ? await writeEntry(trx, conversationId, actorId, 'renamed', [], title)
          : await writeEntry(trx, conversationId, actorId, 'photo');
      return { ...nothing(), entry };
    });
    return { conversation: await announce(conversationId, actorId, change) };
  }

  /** «История для новых участников»: owner and admins switch it; a switch that changes nothing writes nothing. */
  async function setHistory(actorId: string, conversationId: string, visible: boolean) {
    const change = await db.transaction().execute(async (trx) => {
      const me = await actorIn(trx, conversationId, actorId);
      if (!canManage(me.role)) throw forbidden(ADMINS_ONLY);
      // MLS gives a newcomer's devices the keys from their joining on: the past cannot be shown to them.
      if (Number(me.secret) === 1) throw badRequest(SECRET_HISTORY);
      const res = await trx
        .updateTable('conversations')
        .set({ history_visible: visible ? 1 : 0 })
        .where('id', '=', conversationId)
        .where('history_visible', '=', visible ? 0 : 1)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return nothing();
      const entry = await writeEntry(trx, conversationId, actorId, visible ? 'historyShown' : 'historyHidden');
      return { ...nothing(), entry };
    });
    return { conversation: await announce(conversationId, actorId, change) };
  }

  /**
   * Takes `userId` into the group as a member who joined by themselves (an invite link or an open group), with the
   * SYSTEM entry («… вступил(а) по ссылке», «… вступил(а) в группу»); both ways of joining share it, history and all.
   */
  async function admit(
    trx: Tx,
    conversationId: string,
    userId: string,
    now: string,
    kind: 'joined' | 'joinedOpen' = 'joined',
  ): Promise<Change> {
    const count = await trx
      .selectFrom('conversation_members')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= LIMITS.groupParticipantsMax) throw badRequest(TOO_MANY);
    const from = await joinPoint(trx, conversationId);
    await trx
      .insertInto('conversation_members')
      .values({
        conversation_id: conversationId,
        user_id: userId,
        joined_at: now,
        role: 'MEMBER',
        ...from,
      })
      .execute();
    const entry = await writeEntry(trx, conversationId, userId, kind);
    return { ...nothing(), entry, added: [userId] };
  }

  /**
   * Joins by an invite link (group-invites.ts checked its shape): one use counted and the member added in one
   * transaction, so a link with uses left for one more person lets exactly one more in. A member already in it gets
   * the group back and spends no use.
   */
  async function joinByInvite(userId: string, code: string) {
    let conversationId = '';
    const change = await db.transaction().execute(async (trx) => {
      const invite = await trx.selectFrom('group_invites').selectAll().where('code', '=', code).executeTakeFirst();
      if (!invite) throw notFound(INVITE_NOT_FOUND);
      conversationId = invite.conversation_id;
      const already = await roleOf(trx, conversationId, userId);
      if (already !== undefined) return nothing();
      const now = new Date().toISOString();
      const used = await trx
        .updateTable('group_invites')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('code', '=', code)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw new HttpError(410, INVITE_GONE);
      return admit(trx, conversationId, userId, now);
    });
    const conversation = await announce(conversationId, userId, change);
    if (!conversation) {
      // Already a member: the group as they see it.
      const entry = await loadConversation({ db, realtime }, userId, conversationId);
      if (!entry) throw notFound(INVITE_NOT_FOUND);
      return { conversation: entry.conversation };
    }
    return { conversation };
  }

  /**
   * «Вступить» in an open group (docs/behaviour.md §10.25): as by an invite link, without one. A closed group, a
   * secret chat, an unknown id and any group while the directory is off all answer the same 404; a member already
   * in it gets the group back.
   */
  async function joinOpen(userId: string, conversationId: string) {
    const change = await db.transaction().execute(async (trx) => {
      const group = await trx
        .selectFrom('conversations')
        .select(['open', 'secret', 'direct_key'])
        .where('id', '=', conversationId)
        .executeTakeFirst();
      const already = await roleOf(trx, conversationId, userId);
      if (already !== undefined) return nothing();
      // Open groups are found and joined through the directory: with it off, none is reachable.
      if (!group || Number(group.open) !== 1 || Number(group.secret) === 1 || group.direct_key !== null)
        throw notFound(OPEN_GROUP_NOT_FOUND);
      if (!(await directoryOn(trx))) throw notFound(OPEN_GROUP_NOT_FOUND);
      return admit(trx, conversationId, userId, new Date().toISOString(), 'joinedOpen');
    });
    const conversation = await announce(conversationId, userId, change);
    if (conversation) return { conversation };
    const entry = await loadConversation({ db, realtime }, userId, conversationId);
    if (!entry) throw notFound(OPEN_GROUP_NOT_FOUND);
    return { conversation: entry.conversation };
  }

  return { addMembers, removeMember, leave, setRole, update, setHistory, joinByInvite, joinOpen };
}

export type Groups = ReturnType<typeof createGroups>;
