// What «Экспорт данных» puts in the ZIP (docs/accounts.md): README.txt, profile.json, contacts.json,
// conversations.json (every conversation one is in, with its members) and conversations/<id>.json (its messages with
// authors, times, replies, reactions and attachments), and uploads/ (the files one uploaded oneself). Messages are
// read a page at a time and streamed into the archive, so a long history never sits in memory.
import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { Message } from '../../src/contract/entities';
import { SAVED_TITLE } from '../../src/contract/format';
import type { Database } from '../db/database';
import { type MessageRow, toMessages } from '../messages/message-view';
import { savedChatId } from '../saved/saved-chat';
import type { UploadStorage } from '../uploads/storage';
import { DELETED_NAME } from '../users/account-deletion';
import { toOwnUser } from '../users/user-view';

/** Messages read per query while a conversation is written. */
const PAGE = 500;

export interface ExportSources {
  db: Database;
  /** Where uploads are kept (one's own files go into the archive). */
  uploads: UploadStorage;
}

const README = `Экспорт данных

profile.json — ваш профиль.
contacts.json — друзья и запросы в друзья.
conversations.json — беседы, в которых вы состоите, с участниками; сообщения каждой беседы — в conversations/<id>.json
(автор, время, ответ, реакции, вложения). Удалённые сообщения не входят.
uploads/ — файлы, которые вы загрузили сами; поле «file» у вложения указывает на файл в архиве.
Время указано в UTC (ISO 8601).
`;

type Person = { id: string; name: string };

/** Names of users by id, read from the database as they are first met. */
function nameBook(db: Database) {
  const names = new Map<string, string>();
  return {
    async load(ids: Iterable<string>) {
      const missing = [...new Set(ids)].filter((id) => !names.has(id));
      for (let i = 0; i < missing.length; i += PAGE) {
        const rows = await db
          .selectFrom('users')
          .select(['id', 'display_name', 'deleted_at'])
          .where('id', 'in', missing.slice(i, i + PAGE))
          .execute();
        for (const r of rows) names.set(r.id, r.deleted_at ? DELETED_NAME : r.display_name);
      }
    },
    person: (id: string): Person => ({ id, name: names.get(id) ?? DELETED_NAME }),
  };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The name a file gets inside the archive: its storage key (unique) and its cleaned original name. */
const archivedName = (key: string, name: string) => `uploads/${key}-${name}`;

/**
 * Writes the user's archive into `zip` and finalizes it. `progress` is told each step's share done (0 to 1).
 */
export async function fillExport(
  { db, uploads }: ExportSources,
  userId: string,
  zip: ZipArchive,
  progress: (done: number) => void,
): Promise<void> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const names = nameBook(db);

  const memberships = await db
    .selectFrom('conversation_members as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select(['c.id', 'c.title', 'c.is_group', 'c.created_at', 'm.joined_at', 'm.visible_from_seq'])
    .where('m.user_id', '=', userId)
    .orderBy('c.created_at')
    .execute();
  const conversationIds = memberships.map((m) => m.id);
  const members = conversationIds.length
    ? await db
        .selectFrom('conversation_members')
        .select(['conversation_id', 'user_id', 'joined_at'])
        .where('conversation_id', 'in', conversationIds)
        .orderBy('joined_at')
        .execute()
    : [];
  const ownUploads = await db
    .selectFrom('uploads')
    .select(['storage_key', 'original_name', 'url', 'mime', 'size', 'created_at'])
    .where('owner_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const fileOf = new Map(ownUploads.map((u) => [u.url, archivedName(u.storage_key, u.original_name)]));
  const contacts = await db
    .selectFrom('contacts as c')
    .innerJoin('users as u', (j) =>
      j.on((eb) =>
        eb.or([
          eb.and([eb('c.requester_id', '=', userId), eb('u.id', '=', eb.ref('c.addressee_id'))]),
          eb.and([eb('c.addressee_id', '=', userId), eb('u.id', '=', eb.ref('c.requester_id'))]),
        ]),
      ),
    )
    .select(['u.id', 'u.username', 'u.display_name', 'u.eblid', 'c.status', 'c.requester_id', 'c.updated_at'])
    .where((eb) => eb.or([eb('c.requester_id', '=', userId), eb('c.addressee_id', '=', userId)]))
    .execute();

  const counted = conversationIds.length
    ? await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('conversation_id', 'in', conversationIds)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow()
    : { n: 0 };
  // One step per message and per file, and one for the small files: the share done is steps / total.
  const total = Number(counted.n) + ownUploads.length + 1;
  let steps = 0;
  const step = (n: number) => {
    steps += n;
    progress(Math.min(1, steps / total));
  };

  await names.load(members.map((m) => m.user_id));
  const own = toOwnUser(user);
  zip.append(README, { name: 'README.txt' });
  zip.append(json({ ...own, createdAt: user.created_at }), { name: 'profile.json' });
  zip.append(
    json(
      contacts.map((c) => ({
        id: c.id,
        name: c.display_name,
        username: c.username,
        eblid: c.eblid,
        status: c.status === 'ACCEPTED' ? 'friend' : c.requester_id === userId ? 'request-sent' : 'request-received',
        since: c.updated_at,
      })),
    ),
    { name: 'contacts.json' },
  );
  zip.append(
    json(
      memberships.map((c) => ({
        id: c.id,
        // «Избранное» has no title of its own: the archive names it as the app does.
        title: c.id === savedChatId(userId) ? SAVED_TITLE : c.title,
        isGroup: Boolean(Number(c.is_group)),
        createdAt: c.created_at,
        joinedAt: c.joined_at,
        members: members.filter((m) => m.conversation_id === c.id).map((m) => names.person(m.user_id)),
        file: `conversations/${c.id}.json`,
      })),
    ),
    { name: 'conversations.json' },
  );
  step(1);

  const exported = (m: Message) => ({
    id: m.id,
    author: names.person(m.senderId),
    type: m.type,
    text: m.content,
    createdAt: m.createdAt,
    editedAt: m.editedAt,
    replyTo: m.replyTo,
    reactions: m.reactions.map((r) => ({ emoji: r.emoji, users: r.userIds.map((id) => names.person(id)) })),
    attachments: m.attachments.map((a) => ({
      name: a.name,
      type: a.type,
      size: a.size,
      url: a.url,
      file: fileOf.get(a.url) ?? null,
    })),
    ...(m.voice ? { voice: { durationMs: m.voice.durationMs } } : {}),
    ...(m.call ? { call: m.call } : {}),
  });

  /** The messages the user sees (after `visibleFrom`: what a group hid from them as a newcomer, or they cleared). */
  async function* conversationJson(
    conversationId: string,
    title: string | null,
    visibleFrom: number,
  ): AsyncGenerator<string> {
    yield `{\n  "id": ${JSON.stringify(conversationId)},\n  "title": ${JSON.stringify(title)},\n  "messages": [`;
    let after = visibleFrom > 0 ? visibleFrom : -1;
    let first = true;
    for (;;) {
      const rows: MessageRow[] = await db
        .selectFrom('messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('deleted_at', 'is', null)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1].seq);
      const messages = await toMessages(db, rows);
      await names.load(messages.flatMap((m) => [m.senderId, ...m.reactions.flatMap((r) => r.userIds)]));
      const text = messages.map((m) => `\n    ${JSON.stringify(exported(m))}`).join(',');
      yield first ? text : `,${text}`;
      first = false;
      step(rows.length);
      if (rows.length < PAGE) break;
    }
    yield '\n  ]\n}\n';
  }

  zip.on('entry', (entry) => {
    if (entry.name.startsWith('uploads/')) step(1);
  });
  for (const c of memberships) {
    zip.append(Readable.from(conversationJson(c.id, c.title, Number(c.visible_from_seq))), {
      name: `conversations/${c.id}.json`,
    });
  }
  for (const u of ownUploads) {
    // Opened only when the archive reaches it (one file open at a time); a file gone from storage is left empty.
    async function* bytes() {
      const stored = await uploads.read(u.storage_key);
      if (stored) yield* stored;
    }
    zip.append(Readable.from(bytes()), { name: archivedName(u.storage_key, u.original_name) });
  }
  await zip.finalize();
}
