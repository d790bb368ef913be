// The floor: the messaging protocol on bare Fastify + socket.io with nothing stored. Same routes, same socket
// options and events as the app (POST /api/conversations/send with a bearer token answering {message};
// message:new to the conversation room, message:notify to members' other sockets; conversation:join with a
// membership check), but users, tokens and memberships are in-memory maps and nothing is persisted. Also a
// hello route and /list-copy (see below) as references for GET /api/conversations.
// Run by bench/messages/run.ts as a child process pinned to its own core.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Server } from 'socket.io';
import { answerRunner, type BenchUser, type Fixture, groupSizesOf, type SeedSpec } from './fixture';

const app = Fastify({ logger: false });
const io = new Server(app.server, { transports: ['websocket'], maxHttpBufferSize: 64 * 1024, serveClient: false });

const userByToken = new Map<string, string>();
const members = new Map<string, string[]>();

const userRoom = (id: string) => `user:${id}`;
const convRoom = (id: string) => `conv:${id}`;

function bearer(header: string | undefined): string | null {
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m ? (userByToken.get(m[1] as string) ?? null) : null;
}

app.get('/hello', async () => ({ hello: 'world' }));

// The app's own answer to GET /api/conversations, served as bare Fastify serves any object: what the list
// would cost with no database work at all (serializing and sending the same JSON).
let listCopy: unknown = null;
app.get('/list-copy', async () => listCopy);

app.post('/api/conversations/send', async (req, reply) => {
  const userId = bearer(req.headers.authorization);
  if (!userId) return reply.status(401).send({ message: 'Требуется вход' });
  const body = req.body as { conversationId?: unknown; type?: unknown; content?: unknown; clientMessageId?: unknown };
  if (typeof body?.conversationId !== 'string' || body.type !== 'TEXT' || typeof body.content !== 'string') {
    return reply.status(400).send({ message: 'Некорректный запрос' });
  }
  const who = members.get(body.conversationId);
  if (!who?.includes(userId)) return reply.status(404).send({ message: 'Беседа не найдена' });
  const content = body.content.trim();
  if (!content) return reply.status(400).send({ message: 'Сообщение не может быть пустым' });
  const message = {
    id: randomUUID(),
    conversationId: body.conversationId,
    senderId: userId,
    type: 'TEXT' as const,
    content,
    createdAt: new Date().toISOString(),
    deletedAt: null,
    editedAt: null,
    clientMessageId: typeof body.clientMessageId === 'string' ? body.clientMessageId : null,
    replyTo: null,
    attachments: [],
    receipts: [],
    reactions: [],
  };
  io.to(convRoom(message.conversationId)).emit('message:new', { message });
  const others = who.filter((m) => m !== userId).map(userRoom);
  io.to(others)
    .except(convRoom(message.conversationId))
    .emit('message:notify', { conversationId: message.conversationId, message });
  return { message };
});

io.use((socket, next) => {
  const token = (socket.handshake.auth as { token?: unknown })?.token;
  const userId = typeof token === 'string' ? userByToken.get(token) : undefined;
  if (!userId) return next(new Error('Требуется вход'));
  socket.data.userId = userId;
  next();
});
io.on('connection', (socket) => {
  const userId = socket.data.userId as string;
  void socket.join(userRoom(userId));
  socket.on('conversation:join', (ref: unknown, ack?: (a: unknown) => void) => {
    const id = typeof ref === 'string' ? ref : (ref as { conversationId?: string })?.conversationId;
    if (!id || !members.get(id)?.includes(userId)) return ack?.({ ok: false, message: 'Беседа не найдена' });
    void socket.join(convRoom(id));
    ack?.({ ok: true });
  });
});

function user(): BenchUser {
  const u = { id: randomUUID(), token: randomBytes(24).toString('base64url') };
  userByToken.set(u.token, u.id);
  return u;
}

function conversation(people: BenchUser[]): string {
  const id = randomUUID();
  members.set(
    id,
    people.map((p) => p.id),
  );
  return id;
}

async function seed(spec: SeedSpec): Promise<Fixture> {
  const pairs = Array.from({ length: spec.pairs }, () => {
    const a = user();
    const b = user();
    return { conversationId: conversation([a, b]), a, b };
  });
  const groups = groupSizesOf(spec).map((size) => {
    const people = Array.from({ length: size }, user);
    return { conversationId: conversation(people), members: people };
  });
  return { pairs, groups, listUser: user(), idle: Array.from({ length: spec.idleUsers }, user) };
}

await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
answerRunner(
  typeof addr === 'object' && addr ? addr.port : 0,
  seed,
  async () => {
    io.disconnectSockets(true);
    await app.close();
  },
  (body) => {
    listCopy = body;
  },
);
