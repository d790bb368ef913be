// Writes the benchmark's users, conversations and the list user's history straight into the app's database
// (signing in a thousand users through argon2 would take minutes); each user gets a real session and an
// access token from the server's own signer, as a sign-in would give.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { ServerParts } from '../../server/app';
import { issueRefreshToken } from '../../server/auth/refresh-tokens';
import { reactionsJson, reactionsOf } from '../../server/messages/message-view';
import { type BenchUser, type Fixture, groupSizesOf, type SeedSpec } from './fixture';

export async function seedApp(ctx: ServerParts, spec: SeedSpec): Promise<Fixture> {
  const { db, accessTokens, config } = ctx;
  let users = 0;
  const pairKey = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);

  async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) await insert(rows.slice(i, i + 200));
  }

  async function makeUsers(n: number): Promise<BenchUser[]> {
    const now = new Date().toISOString();
    const rows = Array.from({ length: n }, () => {
      const i = users++;
      return {
        id: randomUUID(),
        username: `bench${i}`,
        username_lower: `bench${i}`,
        display_name: `Участник ${i}`,
        // Never signed in with: the benchmark uses tokens from the server's signer.
        password_hash: 'not-a-hash',
        email: null,
        email_lower: null,
        avatar_url: null,
        status: 'ONLINE',
        last_seen_at: null,
        eblid: String(i).padStart(4, '0'),
        bio: null,
        created_at: now,
        role: 'member',
      };
    });
    await insertInChunks(rows, (chunk) => db.insertInto('users').values(chunk).execute());
    // A signed-in session each (the socket handshake checks that the token's session is alive).
    const out: BenchUser[] = [];
    for (const r of rows) {
      const session = await issueRefreshToken(db, r.id, config.refreshTokenTtlSec);
      // Its sign-in too: a refresh token whose sign-in is missing is refused and swept (server/auth/sign-ins.ts).
      const at = new Date().toISOString();
      await db
        .insertInto('sign_ins')
        .values({ id: session.familyId, user_id: r.id, browser: null, os: null, created_at: at, last_active_at: at })
        .execute();
      out.push({ id: r.id, token: await accessTokens.sign(r.id, session.familyId) });
    }
    return out;
  }

  async function makeConversations(groups: { people: BenchUser[]; direct: boolean }[]): Promise<string[]> {
    const now = new Date().toISOString();
    const convs = groups.map((g) => ({
      id: randomUUID(),
      title: g.direct ? null : 'Группа',
      is_group: g.direct ? 0 : 1,
      direct_key: g.direct ? pairKey(g.people[0]!.id, g.people[1]!.id) : null,
      created_by: g.people[0]!.id,
      created_at: now,
    }));
    await insertInChunks(convs, (chunk) => db.insertInto('conversations').values(chunk).execute());
    const members = groups.flatMap((g, i) =>
      g.people.map((p) => ({ conversation_id: convs[i]!.id, user_id: p.id, joined_at: now, role: 'MEMBER' })),
    );
    await insertInChunks(members, (chunk) => db.insertInto('conversation_members').values(chunk).execute());
    return convs.map((c) => c.id);
  }

  const pairUsers = await makeUsers(spec.pairs * 2);
  const pairIds = await makeConversations(
    Array.from({ length: spec.pairs }, (_, i) => ({
      people: [pairUsers[2 * i]!, pairUsers[2 * i + 1]!],
      direct: true,
    })),
  );
  const sizes = groupSizesOf(spec);
  const groupPeople: BenchUser[][] = [];
  for (const size of sizes) groupPeople.push(await makeUsers(size));
  const groupIds = await makeConversations(groupPeople.map((people) => ({ people, direct: false })));

  // The list user: N direct conversations with a history each, the older half read.
  const [listUser] = await makeUsers(1);
  const partners = await makeUsers(spec.listConversations);
  const listIds = await makeConversations(partners.map((p) => ({ people: [listUser!, p], direct: true })));
  const base = Date.now() - 86_400_000;
  const messages = listIds.flatMap((conversationId, c) =>
    Array.from({ length: spec.listMessagesEach }, (_, k) => ({
      id: randomUUID(),
      conversation_id: conversationId,
      sender_id: k % 2 === 0 ? partners[c]!.id : listUser!.id,
      type: 'TEXT',
      content: `Сообщение ${k} в беседе ${c}`,
      reply_to_id: null,
      client_message_id: null,
      created_at: new Date(base + (c * spec.listMessagesEach + k) * 1000).toISOString(),
      deleted_at: null,
    })),
  );
  await insertInChunks(messages, (chunk) => db.insertInto('messages').values(chunk).execute());
  const read = messages.filter(
    (m, i) => m.sender_id !== listUser!.id && i % spec.listMessagesEach < spec.listMessagesEach / 2,
  );
  await insertInChunks(read, (chunk) =>
    db
      .insertInto('receipts')
      .values(
        chunk.map((m) => ({
          message_id: m.id,
          user_id: listUser!.id,
          conversation_id: m.conversation_id,
          status: 'READ',
          created_at: m.created_at,
        })),
      )
      .execute(),
  );
  // What is read is where the read cursor stands (server/messages/read-cursors.ts): at the newest message read.
  await sql`update conversation_members set last_read_seq = coalesce((
      select max(m.seq) from receipts r join messages m on m.id = r.message_id
      where r.user_id = conversation_members.user_id and r.conversation_id = conversation_members.conversation_id
    ), 0) where user_id = ${listUser!.id}`.execute(db);
  // A history page with and without reactions (50 messages; in `reacted` each has 3 reactions from two people).
  const [reader, writer] = await makeUsers(2);
  const [plain, reacted, actions] = await makeConversations([
    { people: [reader!, writer!], direct: false },
    { people: [reader!, writer!], direct: false },
    { people: [reader!, writer!], direct: false },
  ]);
  const page = (conversationId: string) =>
    Array.from({ length: 50 }, (_, k) => ({
      id: randomUUID(),
      conversation_id: conversationId,
      sender_id: k % 2 === 0 ? writer!.id : reader!.id,
      type: 'TEXT',
      content: `Сообщение ${k}`,
      reply_to_id: null,
      client_message_id: null,
      created_at: new Date(base + k * 1000).toISOString(),
      deleted_at: null,
    }));
  const plainPage = page(plain!);
  const reactedPage = page(reacted!);
  // With the message actions' extras: every message mentions the reader, half are forwarded copies, ten are pinned
  // and the reader hid five others (the page then reads 50 of 55).
  const actionsPage = [...page(actions!), ...page(actions!).slice(0, 5)].map((m, k) => ({
    ...m,
    mentions: JSON.stringify([reader!.id]),
    ...(k % 2 === 0 ? { forwarded_from_user_id: writer!.id, forwarded_from_name: 'Автор' } : {}),
  }));
  await insertInChunks([...plainPage, ...reactedPage, ...actionsPage], (chunk) =>
    db.insertInto('messages').values(chunk).execute(),
  );
  await insertInChunks(
    actionsPage.map((m) => ({ message_id: m.id, user_id: reader!.id, conversation_id: actions! })),
    (chunk) => db.insertInto('message_mentions').values(chunk).execute(),
  );
  await db
    .insertInto('message_pins')
    .values(
      actionsPage.slice(0, 10).map((m) => ({
        conversation_id: actions!,
        message_id: m.id,
        pinned_by: writer!.id,
        pinned_at: m.created_at,
      })),
    )
    .execute();
  await db
    .insertInto('hidden_messages')
    .values(
      actionsPage.slice(50).map((m) => ({
        user_id: reader!.id,
        message_id: m.id,
        conversation_id: actions!,
        hidden_at: m.created_at,
      })),
    )
    .execute();
  const reactions = reactedPage.flatMap((m) =>
    [
      [writer!, '👍'],
      [reader!, '❤️'],
      [writer!, '😂'],
    ].map(([u, emoji]) => ({
      message_id: m.id,
      user_id: (u as BenchUser).id,
      emoji: emoji as string,
      created_at: m.created_at,
    })),
  );
  await insertInChunks(reactions, (chunk) => db.insertInto('reactions').values(chunk).execute());
  // As the react route leaves them: each message's reactions column rewritten from its rows.
  const byMessage = await reactionsOf(
    db,
    reactedPage.map((m) => m.id),
  );
  for (const [messageId, list] of byMessage) {
    await db
      .updateTable('messages')
      .set({ reactions: reactionsJson(list) })
      .where('id', '=', messageId)
      .execute();
  }

  return {
    history: { reader: reader!, plain: plain!, reacted: reacted!, actions: actions! },
    pairs: pairIds.map((conversationId, i) => ({ conversationId, a: pairUsers[2 * i]!, b: pairUsers[2 * i + 1]! })),
    groups: groupIds.map((conversationId, i) => ({ conversationId, members: groupPeople[i]! })),
    listUser: listUser!,
    listConversationId: listIds[0]!,
    idle: await makeUsers(spec.idleUsers),
  };
}
