// The data set of the upgrade fixtures (tests/fixtures/upgrade) and the one view both sides read it by: written by
// scripts/build-upgrade-fixtures.ts into an earlier release's real server over its HTTP API and socket.io, read back
// by tests/server/upgrade-fixtures.test.ts from the current server after the upgrade. Only routes every fixture's
// release has are used unless the release's route table (src/contract/routes.ts at its commit, or its per-feature
// src/contract/api/*.routes.ts) names the feature: threads, polls, secret chats. Everything here talks HTTP; nothing
// imports the server.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { io } from 'socket.io-client';

export const PASSWORD = 'correct horse battery';
/** The message the search must find by another form of one of its words. */
export const SEARCHED_TEXT = 'Отлично, читаю книгу о кошках и собаках';
export const SEARCH_QUERY = 'кошка';
/** The uploaded file: bytes that no sniffing re-encodes (a plain text file is stored and served as is). */
export const UPLOAD_NAME = 'заметки.txt';
export const UPLOAD_BYTES = Buffer.from('Список книг на лето:\n1. Мастер и Маргарита\n2. Белая гвардия\n', 'utf8');

/** What the release's route table offers beyond the common core. */
export interface Features {
  threads: boolean;
  polls: boolean;
  secret: boolean;
  /** Secret devices need a signed device key under the person's identity key (later releases). */
  secretIdentity: boolean;
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function http(base: string) {
  async function call<T = any>(method: string, p: string, body?: unknown, token?: string): Promise<Res<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* a non-JSON body stays text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  /** A call that must succeed; its body. */
  async function ok<T = any>(method: string, p: string, body?: unknown, token?: string): Promise<T> {
    const res = await call<T>(method, p, body, token);
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  return { call, ok, base };
}
export type Http = ReturnType<typeof http>;

/** One message as the fixture's manifest keeps it: what must read the same before and after the upgrade. */
export interface MessageView {
  id: string;
  senderId: string;
  type: string;
  content: string;
  edited: boolean;
  replyToId: string | null;
  reactions: { emoji: string; userIds: string[] }[];
  receipts: { userId: string; status: string }[];
  attachments: { url: string; name: string | null; size: number | null }[];
  poll: { question: string; options: { text: string; votes: number }[]; voterCount: number } | null;
  threadRootId: string | null;
}

export function messageView(m: any): MessageView {
  return {
    id: m.id,
    senderId: m.senderId,
    type: m.type,
    content: m.content,
    edited: m.editedAt != null,
    replyToId: m.replyTo?.id ?? null,
    reactions: (m.reactions ?? []).map((r: any) => ({ emoji: r.emoji, userIds: [...r.userIds] })),
    receipts: [...(m.receipts ?? [])]
      .map((r: any) => ({ userId: r.userId, status: r.status }))
      .sort((a, b) => a.userId.localeCompare(b.userId)),
    attachments: (m.attachments ?? []).map((a: any) => ({ url: a.url, name: a.name ?? null, size: a.size ?? null })),
    poll: m.poll
      ? {
          question: m.poll.question,
          options: m.poll.options.map((o: any) => ({ text: o.text, votes: o.votes })),
          voterCount: m.poll.voterCount,
        }
      : null,
    threadRootId: m.threadRootId ?? null,
  };
}

export interface FixtureUser {
  username: string;
  id: string;
  /** The sign-in's refresh token, never used after the fixture was written: the upgraded server must honour it. */
  refreshToken: string;
  /** Secret chats: the device registered for this sign-in. */
  secretDeviceId: string | null;
}

export interface Manifest {
  release: { commit: string; date: string; schema: string };
  database: 'sqlite' | 'postgres';
  /** When the data was written (the server clock the test starts the current server on comes from it). */
  writtenAt: string;
  features: Features;
  users: Record<'alice' | 'boris' | 'vera', FixtureUser>;
  /** Every conversation's id, title and unread count as alice and as boris read them (by id). */
  conversations: Record<'alice' | 'boris', { id: string; title: string | null; unreadCount: number }[]>;
  direct: { id: string; messages: MessageView[] };
  group: { id: string; messages: MessageView[] };
  /** The thread of the group's first message (threads only). */
  thread: { rootId: string; replies: MessageView[] } | null;
  search: { query: string; hits: string[] };
  upload: { url: string; sha256: string; size: number };
  secret: {
    conversationId: string;
    /** The owner's device state for the secret chat (epoch, membership) and the member's package count. */
    epoch: number;
    memberKeyPackagesLeft: number;
    /** How many log entries the member's device has to read (the welcome). */
    memberLogEntries: number;
    /** The encrypted messages (ciphertexts) in order. */
    messages: MessageView[];
  } | null;
}

const USERS = [
  ['alice', 'Алиса Петрова'],
  ['boris', 'Борис Иванов'],
  ['vera', 'Вера Смирнова'],
] as const;

interface Session {
  name: 'alice' | 'boris' | 'vera';
  username: string;
  id: string;
  accessToken: string;
  refreshToken: string;
}

/** Everything under /api the data set reads, through one member's eyes. */
export async function readMessages(api: Http, conversationId: string, token: string): Promise<MessageView[]> {
  const page = await api.ok('GET', `/api/conversations/${conversationId}/messages?limit=100`, undefined, token);
  return page.messages.map(messageView);
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Waits for an event on one socket whose payload mentions `id`, or fails after a few seconds. */
function heard(events: { payload: string }[], id: string): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const look = () => {
      if (events.some((e) => e.payload.includes(id))) return resolve();
      if (Date.now() - started > 5000) return reject(new Error(`no socket event about ${id}`));
      setTimeout(look, 20);
    };
    look();
  });
}

const rawKey = (key: KeyObject) =>
  Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url').toString('base64');
const opaque = (n: number) => randomBytes(n).toString('base64');

/**
 * Writes the data set into a running release and returns its manifest (without `release`, `database`). `statement`
 * is that release's device statement (src/contract/secret-identity.ts), needed only with `features.secretIdentity`.
 */
export async function writeDataSet(
  api: Http,
  features: Features,
  statement: ((userId: string, signatureKey: string) => string) | null,
): Promise<Omit<Manifest, 'release' | 'database'>> {
  const s: Record<string, Session> = {};
  for (const [name, displayName] of USERS) {
    const username = `${name}_fixture`;
    await api.ok('POST', '/api/auth/register', { username, displayName, password: PASSWORD });
    const login = await api.ok('POST', '/api/auth/login', { username, password: PASSWORD });
    s[name] = { name, username, id: login.user.id, accessToken: login.accessToken, refreshToken: login.refreshToken };
  }
  const { alice, boris, vera } = s as Record<'alice' | 'boris' | 'vera', Session>;

  // Boris listens on a socket as a browser does: the release delivers what alice writes in real time.
  const events: { event: string; payload: string }[] = [];
  const socket = io(api.base, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token: boris.accessToken },
  });
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload: JSON.stringify(payload) }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

  // Friends first: later releases let only friends write to each other and start secret chats.
  for (const other of [boris, vera]) {
    await api.ok('POST', '/api/contacts/add', { identifier: other.username }, alice.accessToken);
    const incoming = await api.ok('GET', '/api/contacts?filter=incoming', undefined, other.accessToken);
    const request = incoming.contacts[0];
    await api.ok('POST', '/api/contacts/respond', { contactId: request.id, action: 'accept' }, other.accessToken);
  }

  const send = async (who: Session, conversationId: string, content: string, extra: object = {}) =>
    (
      await api.ok(
        'POST',
        '/api/conversations/send',
        { conversationId, type: 'TEXT', content, ...extra },
        who.accessToken,
      )
    ).message;

  // The direct chat: a reply, an edit, a reaction, a file, read receipts.
  const direct = (await api.ok('POST', '/api/conversations/with', { userId: boris.id }, alice.accessToken))
    .conversation;
  const a1 = await send(alice, direct.id, 'Привет, Борис! Как дела?');
  await heard(events, a1.id);
  const b1 = await send(boris, direct.id, SEARCHED_TEXT);
  await send(alice, direct.id, 'Какую книгу?', { replyToId: b1.id });
  const a3 = await send(alice, direct.id, 'Встретимся в пятницу');
  await api.ok('POST', '/api/messages/edit', { messageId: a3.id, content: 'Встретимся в субботу' }, alice.accessToken);
  await api.ok('POST', '/api/messages/react', { messageId: b1.id, emoji: '👍', on: true }, alice.accessToken);
  await api.ok('POST', '/api/messages/react', { messageId: a1.id, emoji: '❤️', on: true }, boris.accessToken);
  const form = new FormData();
  form.append('file', new Blob([UPLOAD_BYTES], { type: 'text/plain' }), UPLOAD_NAME);
  const upRes = await fetch(`${api.base}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice.accessToken}` },
    body: form,
  });
  const up = await upRes.json();
  if (upRes.status !== 201) throw new Error(`upload: ${upRes.status} ${JSON.stringify(up)}`);
  await send(alice, direct.id, '', { type: 'FILE', attachments: [{ url: up.url, type: up.attachment.type }] });
  const fileBytes = new Uint8Array(await (await fetch(api.base + up.url)).arrayBuffer());
  const aliceIds = (await readMessages(api, direct.id, boris.accessToken))
    .filter((m) => m.senderId === alice.id)
    .map((m) => m.id);
  await api.ok('POST', '/api/messages/receipts', { messageIds: aliceIds, status: 'READ' }, boris.accessToken);

  // The group: three voices, a thread and a poll where the release has them.
  const group = (
    await api.ok(
      'POST',
      '/api/conversations',
      { participantIds: [boris.id, vera.id], title: 'Книжный клуб', isGroup: true },
      alice.accessToken,
    )
  ).conversation;
  const g1 = await send(alice, group.id, 'Всем привет! Обсуждаем «Мастера и Маргариту»');
  await send(boris, group.id, 'Я дочитал до середины');
  await send(vera, group.id, 'А я ещё не начинала');
  let thread: Manifest['thread'] = null;
  if (features.threads) {
    await send(vera, group.id, 'Начну на выходных', { threadRootId: g1.id });
    await send(boris, group.id, 'Не пожалеешь', { threadRootId: g1.id });
    thread = { rootId: g1.id, replies: [] };
  }
  if (features.polls) {
    const poll = (
      await api.ok(
        'POST',
        '/api/polls',
        {
          conversationId: group.id,
          question: 'Когда встречаемся?',
          options: ['В пятницу', 'В субботу', 'В воскресенье'],
        },
        alice.accessToken,
      )
    ).message;
    const [friday, saturday] = poll.poll.options.map((o: any) => o.id);
    await api.ok('POST', '/api/polls/vote', { messageId: poll.id, optionIds: [friday] }, alice.accessToken);
    await api.ok('POST', '/api/polls/vote', { messageId: poll.id, optionIds: [saturday] }, boris.accessToken);
    await api.ok('POST', '/api/polls/vote', { messageId: poll.id, optionIds: [saturday] }, vera.accessToken);
  }
  await api.ok('POST', '/api/messages/mark-conversation-read', { conversationId: group.id }, boris.accessToken);

  let secret: Manifest['secret'] = null;
  const deviceOf: Record<string, string | null> = { alice: null, boris: null, vera: null };
  if (features.secret) {
    const device = async (who: Session) => {
      const body: Record<string, unknown> = { keyPackages: [opaque(64), opaque(64), opaque(64)] };
      if (features.secretIdentity) {
        if (!statement) throw new Error('a release with secret identities needs its device statement');
        const identity = generateKeyPairSync('ed25519');
        await api.ok('POST', '/api/secret/identity', { publicKey: rawKey(identity.publicKey) }, who.accessToken);
        const signatureKey = rawKey(generateKeyPairSync('ed25519').publicKey);
        body.signatureKey = signatureKey;
        body.identitySignature = sign(null, Buffer.from(statement(who.id, signatureKey)), identity.privateKey).toString(
          'base64',
        );
      }
      return (await api.ok('POST', '/api/secret/devices', body, who.accessToken)).device.id as string;
    };
    deviceOf.alice = await device(alice);
    deviceOf.boris = await device(boris);
    const created = await api.ok(
      'POST',
      '/api/secret/conversations',
      {
        deviceId: deviceOf.alice,
        memberIds: [boris.id],
        deviceIds: [deviceOf.boris],
        groupId: opaque(32),
        welcome: opaque(200),
        title: 'Секрет',
      },
      alice.accessToken,
    );
    const conversationId = created.conversation.id as string;
    const state = await api.ok('GET', `/api/secret/state?deviceId=${deviceOf.alice}`, undefined, alice.accessToken);
    const epoch = state.groups.find((g: any) => g.conversationId === conversationId).epoch as number;
    for (const n of [1, 2]) {
      await api.ok(
        'POST',
        '/api/secret/send',
        {
          conversationId,
          deviceId: deviceOf.alice,
          epoch,
          ciphertext: opaque(48 + n),
          clientMessageId: `fixture-${n}`,
        },
        alice.accessToken,
      );
    }
    secret = { conversationId, epoch, memberKeyPackagesLeft: 0, memberLogEntries: 0, messages: [] };
  }
  socket.disconnect();

  // What the release answers now is what the upgraded server must answer.
  const readSecret = secret
    ? await readSecretState(
        api,
        secret.conversationId,
        alice.accessToken,
        deviceOf.alice as string,
        boris.accessToken,
        deviceOf.boris as string,
      )
    : null;
  return {
    writtenAt: new Date().toISOString(),
    features,
    users: Object.fromEntries(
      Object.values(s).map((u) => [
        u.name,
        { username: u.username, id: u.id, refreshToken: u.refreshToken, secretDeviceId: deviceOf[u.name] },
      ]),
    ) as Manifest['users'],
    conversations: {
      alice: await readConversations(api, alice.accessToken),
      boris: await readConversations(api, boris.accessToken),
    },
    direct: { id: direct.id, messages: await readMessages(api, direct.id, alice.accessToken) },
    group: { id: group.id, messages: await readMessages(api, group.id, alice.accessToken) },
    thread: thread ? { rootId: thread.rootId, replies: await readThread(api, thread.rootId, alice.accessToken) } : null,
    search: { query: SEARCH_QUERY, hits: await searchHits(api, SEARCH_QUERY, alice.accessToken) },
    upload: { url: up.url, sha256: sha256(fileBytes), size: fileBytes.length },
    secret: readSecret && secret ? { ...readSecret, conversationId: secret.conversationId } : null,
  };
}

/** The conversations one person has, without «Избранное» (a later release adds it to everyone's list). */
export async function readConversations(api: Http, token: string) {
  const list = await api.ok('GET', '/api/conversations', undefined, token);
  return (list.conversations as any[])
    .filter((e) => !String(e.conversation.id).startsWith('saved-'))
    .map((e) => ({
      id: e.conversation.id as string,
      title: (e.conversation.title ?? null) as string | null,
      unreadCount: e.unreadCount as number,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export async function readThread(api: Http, rootId: string, token: string): Promise<MessageView[]> {
  const t = await api.ok('GET', `/api/threads/${rootId}`, undefined, token);
  return t.messages.map(messageView);
}

export async function searchHits(api: Http, q: string, token: string): Promise<string[]> {
  const r = await api.ok('GET', `/api/search?q=${encodeURIComponent(q)}`, undefined, token);
  return r.results.map((x: any) => x.message.id as string);
}

export async function readSecretState(
  api: Http,
  conversationId: string,
  ownerToken: string,
  ownerDevice: string,
  memberToken: string,
  memberDevice: string,
) {
  const owner = await api.ok('GET', `/api/secret/state?deviceId=${ownerDevice}`, undefined, ownerToken);
  const group = owner.groups.find((g: any) => g.conversationId === conversationId);
  const member = await api.ok('GET', `/api/secret/state?deviceId=${memberDevice}`, undefined, memberToken);
  const log = await api.ok(
    'GET',
    `/api/secret/conversations/${conversationId}/log?deviceId=${memberDevice}&after=0`,
    undefined,
    memberToken,
  );
  return {
    epoch: group?.epoch ?? -1,
    memberKeyPackagesLeft: member.keyPackagesLeft as number,
    memberLogEntries: log.entries.length as number,
    messages: await readMessages(api, conversationId, ownerToken),
  };
}
