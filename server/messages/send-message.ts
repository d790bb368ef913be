// Sending a message: the checks a send must pass (type, content, the quoted message, the attached uploads, a
// voice message's shape), the idempotent write (a retry with the same clientMessageId gets the first message,
// anything else under that id 409), then the events. The route only hands the request in.
import type { z } from 'zod';
import type { SendBody } from '../../src/contract/api';
import type { Message } from '../../src/contract/entities';
import { checkEntities, type EntityInput, type MessageEntity, trimEntities } from '../../src/contract/message-entities';
import { isMuted } from '../conversations/chat-settings-view';
import type { ConversationListCache } from '../conversations/list-cache';
import { memberList, membersFor } from '../conversations/membership';
import { isSecret, SECRET_IS_ENCRYPTED } from '../conversations/secret-flag';
import type { Database } from '../db/database';
import { badRequest, conflict, forbidden } from '../http/errors';
import type { PreviewAttacher } from '../previews/previews.plugin';
import type { PushNotifier } from '../push/push.plugin';
import type { RealtimeHub } from '../realtime/hub';
import { threadRootFor } from '../threads/thread-access';
import { followersOf, followOnReply } from '../threads/thread-follows';
import { BLOCKED_BY_ME, BLOCKED_BY_THEM, type Blocks } from '../users/blocks';
import { requireMayWrite } from '../users/message-privacy';
import { withEveryone } from './mention-everyone';
import { newMessageId } from './message-id';
import { freshMessage, toMessages } from './message-view';
import { createMessageWriter } from './message-writer';
import { threadSummaries } from './thread-summary';
import { checkVoice } from './voice-check';

export type SendInput = z.output<typeof SendBody>;

/** What sending uses: the database and the three ways a new message goes out. */
export interface SendDeps {
  db: Database;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'typingEnded' | 'toConversation' | 'toUsersOutside'>;
  push: Pick<PushNotifier, 'message'>;
  blocks: Pick<Blocks, 'has' | 'between'>;
  /** Link cards (server/previews): a sent text with an http(s) link goes out with its card or `pending`. */
  previews?: PreviewAttacher;
}

/** '/uploads/x.png' or 'https://host/uploads/x.png' → '/uploads/x.png' (the stored url). */
function uploadPath(url: string): string {
  try {
    return new URL(url, 'http://local').pathname;
  } catch {
    return url;
  }
}

/** A direct chat where either person blocked the other takes no message either way (403). */
export async function refuseBlocked(
  { db, blocks }: Pick<SendDeps, 'db' | 'blocks'>,
  conversationId: string,
  userId: string,
  members: readonly string[],
) {
  if (members.length !== 2) return;
  const other = members[0] === userId ? members[1] : members[0];
  // In memory; the direct-chat lookup only for a pair that has a block.
  if (!blocks.between(userId, other)) return;
  const c = await db
    .selectFrom('conversations')
    .select('direct_key')
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!c?.direct_key) return;
  throw forbidden(blocks.has(userId, other) ? BLOCKED_BY_ME : BLOCKED_BY_THEM);
}

/** Direct chats known to have had a message (or whose first message passed): the send path asks no more. */
const started = new WeakMap<Database, Set<string>>();
const STARTED_MAX = 100_000;

/**
 * The first message of a direct chat is checked again against «Кто может мне писать» (message-privacy.ts): the chat
 * may have been opened while it was allowed (a group shared then). Once a chat has a message it stays usable, as in
 * Telegram. Only whoever opened the chat is checked: the other person is answering an invitation to talk.
 */
export async function refuseFirstMessage(
  { db, blocks }: Pick<SendDeps, 'db' | 'blocks'>,
  conversationId: string,
  userId: string,
  members: readonly string[],
) {
  if (members.length !== 2) return;
  let known = started.get(db);
  if (!known) {
    known = new Set();
    started.set(db, known);
  }
  if (known.has(conversationId)) return;
  // Both reads at once: a two-member conversation is almost always a direct chat.
  const [c, any] = await Promise.all([
    db
      .selectFrom('conversations')
      .select(['direct_key', 'created_by'])
      .where('id', '=', conversationId)
      .executeTakeFirst(),
    db.selectFrom('messages').select('id').where('conversation_id', '=', conversationId).limit(1).executeTakeFirst(),
  ]);
  if (c?.direct_key && !any && c.created_by === userId) {
    await requireMayWrite({ db, blocks }, userId, members[0] === userId ? members[1] : members[0]);
  }
  if (known.size >= STARTED_MAX) known.clear();
  known.add(conversationId);
}

/** The checks' outcomes in the order given: the first refusal wins, whichever read finished first. */
async function inOrder<T extends readonly unknown[]>(checks: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** Who gets no push for a new message here: members who muted the chat and are not mentioned in it. */
export async function quietMembers(db: Database, conversationId: string, mentioned: readonly string[] = []) {
  const now = Date.now();
  return (await memberList(db, conversationId))
    .filter((m) => isMuted(m.mutedUntil, now) && !mentioned.includes(m.id))
    .map((m) => m.id);
}

/**
 * The checked formatting of a text that is then trimmed (as stored), [] when plain; a refusal is a 400 with its
 * Russian sentence. A pure loop over the ranges: the send path's only cost for formatting.
 */
export function formattingOf(raw: string, entities: readonly EntityInput[] | undefined): MessageEntity[] {
  if (!entities?.length) return [];
  const checked = checkEntities(raw, entities);
  if (!checked.ok) throw badRequest(checked.message);
  return trimEntities(raw, checked.entities);
}

/** What messages.entities holds for these ranges. */
export const entitiesJson = (entities: readonly MessageEntity[]) => (entities.length ? JSON.stringify(entities) : null);

/** The members a send may mention: current members but the sender, each once, in the order given. */
export const mentionable = (wanted: readonly string[] | undefined, members: readonly string[], senderId: string) =>
  [...new Set(wanted ?? [])].filter((id) => id !== senderId && members.includes(id));

/** The recipients of a push: the others but the muted (known now, or once read: see send). */
const pushRecipients = (others: readonly string[], muted: readonly string[] | Promise<readonly string[]>) => {
  const without = (m: readonly string[]) => (m.length ? others.filter((id) => !m.includes(id)) : others);
  return Array.isArray(muted)
    ? without(muted as readonly string[])
    : (muted as Promise<readonly string[]>).then(without);
};

/**
 * One frame per socket: joined sockets get message:new, the other members' remaining sockets message:notify. The
 * frames go first; the lists' invalidation follows before the answer (a list read after it must show the message),
 * Web Push after the answer (push.plugin.ts).
 */
export function publishNew(
  { lists, realtime, push }: Pick<SendDeps, 'lists' | 'realtime' | 'push'>,
  message: Message,
  members: readonly string[],
  muted: readonly string[] | Promise<readonly string[]>,
): void {
  realtime.toConversation(message.conversationId, 'message:new', { message });
  const others = members.filter((m) => m !== message.senderId);
  realtime.toUsersOutside(others, message.conversationId, 'message:notify', {
    conversationId: message.conversationId,
    message,
  });
  lists.changed(members, message.conversationId);
  realtime.typingEnded(message.conversationId, message.senderId);
  push.message(message, pushRecipients(others, muted));
}

/**
 * A thread reply goes to the group's joined sockets (the open chat updates the root's «N ответов», an open panel
 * shows the reply) and to the followers' other sockets; Web Push to followers only, as for the main timeline
 * minus those who muted the group and are not mentioned. The chat list does not change.
 */
export async function publishThreadReply(
  { db, realtime, push }: Pick<SendDeps, 'db' | 'realtime' | 'push'>,
  message: Message,
  rootId: string,
  members: readonly string[],
  muted: readonly string[] | Promise<readonly string[]>,
): Promise<void> {
  const [followers, summaries] = await Promise.all([followersOf(db, rootId, members), threadSummaries(db, [rootId])]);
  const thread = summaries.get(rootId) ?? { replyCount: 0, lastReplyAt: null, repliers: [] };
  const payload = { conversationId: message.conversationId, message, thread };
  realtime.typingEnded(message.conversationId, message.senderId);
  realtime.toConversation(message.conversationId, 'thread:reply', payload);
  const others = followers.filter((id) => id !== message.senderId);
  realtime.toUsersOutside(others, message.conversationId, 'thread:reply', payload);
  push.message(message, pushRecipients(others, muted));
}

export function createMessageSender({ db, lists, realtime, push, blocks, previews }: SendDeps) {
  const visibleMessage = (id: string) =>
    db.selectFrom('messages').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

  const writer = createMessageWriter(db);

  /** The sender's message with this clientMessageId, if any. */
  async function firstWithClientId(userId: string, clientMessageId: string): Promise<Message | undefined> {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', userId)
      .where('client_message_id', '=', clientMessageId)
      .executeTakeFirst();
    return row ? (await toMessages(db, [row]))[0] : undefined;
  }

  /**
   * A repeated clientMessageId: the same message again (a retry) is answered with the first one; anything
   * else under that id is refused with 409, as payment APIs do, so a client bug cannot silently lose a text.
   */
  function answerRetry(first: Message, body: SendInput, content: string, paths: string[]): { message: Message } {
    if (first.conversationId !== body.conversationId)
      throw conflict('clientMessageId уже использован для другой беседы');
    const same =
      first.type === body.type &&
      first.content === content &&
      (first.replyTo?.id ?? null) === (body.replyToId ?? null) &&
      (first.threadRootId ?? null) === (body.threadRootId ?? null) &&
      first.attachments.length === paths.length &&
      first.attachments.every((a, i) => uploadPath(a.url) === paths[i]);
    if (!same) throw conflict('clientMessageId уже использован для другого сообщения');
    return { message: first };
  }

  /** Checks a send against the database: the quoted message, the attached uploads. */
  async function resolveReferences(userId: string, body: SendInput, paths: string[]) {
    const attachments = body.attachments ?? [];
    let replyTo: { id: string; content: string } | null = null;
    if (body.replyToId) {
      const original = await visibleMessage(body.replyToId);
      if (!original || original.conversation_id !== body.conversationId) {
        throw badRequest('Ответить можно только на сообщение из этой беседы');
      }
      // A quote stays where it is read: in the same thread, or in the main timeline.
      if ((original.thread_root_id ?? null) !== (body.threadRootId ?? null)) {
        throw badRequest('Цитировать можно только сообщение из того же обсуждения');
      }
      replyTo = { id: original.id, content: original.content };
    }
    const uploads = paths.length
      ? await db
          .selectFrom('uploads')
          .select(['id', 'url', 'kind', 'original_name', 'size', 'width', 'height'])
          .where('url', 'in', paths)
          .where('owner_id', '=', userId)
          .execute()
      : [];
    const uploadByUrl = new Map(uploads.map((u) => [u.url, u]));
    const ordered = paths.map((p, i) => {
      const u = uploadByUrl.get(p);
      if (!u) throw badRequest('Вложение должно быть вашим загруженным файлом');
      if (attachments[i]?.type === 'IMAGE' && u.kind !== 'IMAGE') throw badRequest('Вложение не является изображением');
      return u;
    });
    if (body.type === 'IMAGE' && uploads.some((u) => u.kind !== 'IMAGE')) {
      throw badRequest('Сообщение типа IMAGE может содержать только изображения');
    }
    if (body.type === 'VOICE') checkVoice(body, ordered);
    return { replyTo, uploads: ordered };
  }

  // The common send is one membership lookup in memory and one INSERT in a shared transaction: the
  // idempotency check is the unique index, and the answer is built from what was written.
  // Every check stays before the answer; the independent reads among them run at once (each is usually answered
  // from memory), and their refusals keep their order. Web Push's reads follow the answer (publishNew).
  async function send(userId: string, body: SendInput): Promise<{ message: Message }> {
    // A secret chat takes ENCRYPTED messages only (POST /api/secret/send); the flag is remembered, no query. Not a
    // member: 404 first, whatever the flag.
    const [members, secret] = await inOrder<[readonly string[], boolean]>([
      membersFor(db, body.conversationId, userId),
      isSecret(db, body.conversationId),
    ]);
    if (secret) throw badRequest(SECRET_IS_ENCRYPTED);
    // Blocks, «Кто может мне писать» for a direct chat's first message, and a thread reply's root (one the sender
    // can see, in this group, with threads on).
    const [, , root] = await inOrder<[unknown, unknown, Awaited<ReturnType<typeof threadRootFor>> | undefined]>([
      refuseBlocked({ db, blocks }, body.conversationId, userId, members),
      refuseFirstMessage({ db, blocks }, body.conversationId, userId, members),
      body.threadRootId ? threadRootFor(db, userId, body.threadRootId) : Promise.resolve(undefined),
    ]);
    const thread = root?.root;
    if (thread && thread.conversation_id !== body.conversationId)
      throw badRequest('Обсуждение относится к другой беседе');
    const content = body.content.trim();
    const entities = formattingOf(body.content, body.entities);
    // Mentions by id, of current members only (others are dropped, not stored); `@все` in a group adds everyone's.
    const mentions = await withEveryone(
      db,
      body.conversationId,
      userId,
      content,
      mentionable(body.mentions, members, userId),
    );
    const paths = (body.attachments ?? []).map((a) => uploadPath(a.url));
    const retry = async () => {
      const first = body.clientMessageId ? await firstWithClientId(userId, body.clientMessageId) : undefined;
      return first && answerRetry(first, body, content, paths);
    };

    let refs: Awaited<ReturnType<typeof resolveReferences>>;
    try {
      if (body.type === 'TEXT' && !content) throw badRequest('Сообщение не может быть пустым');
      if (body.type === 'TEXT' && paths.length)
        throw badRequest('Вложения отправляются сообщением типа IMAGE или FILE');
      if (body.type !== 'TEXT' && paths.length === 0) throw badRequest('Прикрепите хотя бы один файл');
      if (body.type === 'VOICE' && !body.voice) throw badRequest('Голосовому сообщению нужны длительность и волна');
      if (body.type !== 'VOICE' && body.voice) throw badRequest('Длительность и волна — только у голосового сообщения');
      refs = await resolveReferences(userId, body, paths);
    } catch (err) {
      // A retry is answered with the first message even if, say, the quoted message was deleted since.
      const answer = await retry();
      if (answer) return answer;
      throw err;
    }

    const row = {
      id: newMessageId(),
      conversation_id: body.conversationId,
      sender_id: userId,
      type: body.type,
      content,
      reply_to_id: body.replyToId ?? null,
      client_message_id: body.clientMessageId ?? null,
      created_at: new Date().toISOString(),
      deleted_at: null,
      mentions: mentions.length ? JSON.stringify(mentions) : null,
      thread_root_id: thread?.id ?? null,
      entities: entitiesJson(entities),
    };
    const outcome = await writer.write({
      row,
      uploadIds: refs.uploads.map((u) => u.id),
      voice: body.voice,
      mentions,
    });
    if (outcome === 'duplicate') {
      const answer = await retry();
      if (!answer) throw new Error('clientMessageId conflict without a stored message');
      return answer;
    }
    // «Без звука»: no push (the member's tabs stay quiet by the same setting), unless the message mentions them.
    // Only Web Push needs it, after the answer: read meanwhile, awaited there.
    const muted = quietMembers(db, body.conversationId, mentions);
    // Handled there; a send that fails before publishing must not leave it unhandled.
    muted.catch(() => undefined);
    const written = freshMessage(row, refs.replyTo, refs.uploads, { voice: body.voice ?? null });
    const message = previews ? await previews.attach(written) : written;
    if (thread) {
      await followOnReply(
        db,
        {
          rootId: thread.id,
          rootAuthorId: thread.sender_id,
          conversationId: body.conversationId,
          senderId: userId,
          mentions,
        },
        members,
      );
      await publishThreadReply({ db, realtime, push }, message, thread.id, members, muted);
    } else publishNew({ lists, realtime, push }, message, members, muted);
    return { message };
  }

  return send;
}
