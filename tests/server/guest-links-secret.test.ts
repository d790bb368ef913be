// Guests in a secret chat's call over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL
// (docs/secret-chats.md "Guests in encrypted calls"): the link names the group's epoch, never its secret; a knock
// must bring the guest's key with its MAC, which the server stores and relays to the deciders as they are; «Впустить»
// must bring the call key sealed to the guest, which reaches that guest's socket only; a newer epoch's key reaches an
// admitted guest only; an admitted guest without its key asks the deciders for it; and neither the database nor the
// server's log holds the link secret, the call key or the sealed blob. The crypto is the clients' own (src/services/guests/guest-e2ee.ts).
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GUEST, guestServerEvents } from '../../src/contract/guests';
import {
  knockMac,
  makeGuestKeys,
  openCallKey,
  sealCallKey,
  toB64,
  verifyKnock,
} from '../../src/services/guests/guest-e2ee';
import { client, startTestServer, type TestServer } from './harness';
import { type ManualClock, manualClock } from './manual-clock';
import { secretChat } from './secret-helpers';
import { type Api, ack, befriend, closeAll, connect, next, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let stranger: TestUser;
let chat: string;
let room: string;
let clock: ManualClock;
const log: string[] = [];

beforeAll(async () => {
  clock = manualClock();
  srv = await startTestServer({ logLevel: 'debug' }, { clock, logStream: { write: (line) => log.push(line) } });
  api = client(srv.url);
  [anna, boris, stranger] = await Promise.all(['anna', 'boris', 'eve'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  chat = await secretChat(api, anna, [boris]);
  room = `conv-${chat}`;
  srv.server.app.mediaRooms.attach({ removeParticipants: (_r, identities) => identities.length });
});
afterAll(() => srv?.close());

const sockets: Socket[] = [];
afterEach(() => {
  closeAll();
  for (const s of sockets.splice(0)) s.disconnect();
});

/** The guest's socket: everything it hears, checked against the contract. */
async function guestSocket(auth: { knockId: string; secret: string }) {
  const s = io(`${srv.url}/guest`, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { knockId: auth.knockId, secret: auth.secret },
  });
  sockets.push(s);
  const heard: { event: string; payload: Record<string, unknown> }[] = [];
  s.onAny((event: string, payload: Record<string, unknown>) => {
    const schema = guestServerEvents[event as keyof typeof guestServerEvents];
    if (!schema?.safeParse(payload).success) throw new Error(`guest event ${event} breaks the contract`);
    heard.push({ event, payload });
  });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  const wait = async (where: (e: { event: string; payload: Record<string, unknown> }) => boolean) => {
    const deadline = Date.now() + 3000;
    for (;;) {
      const found = heard.find(where);
      if (found) return found.payload;
      if (Date.now() > deadline) throw new Error('nothing heard within 3000 ms');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { socket: s, heard, wait };
}

/** Every row of every table, as text: what someone holding the database reads. */
async function wholeDatabase(): Promise<string> {
  const db = srv.server.ctx.db;
  const tables = await db.introspection.getTables();
  const out: string[] = [];
  for (const t of tables) {
    const rows = await (db as any).selectFrom(t.name).selectAll().execute();
    out.push(JSON.stringify(rows, (_k, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
  }
  return out.join('\n');
}

/** The ways a 32-byte secret could be written down: base64url, base64, hex. */
const spellings = (bytes: Uint8Array) => {
  const b = Buffer.from(bytes);
  return [toB64(bytes), b.toString('base64').replace(/=+$/, ''), b.toString('hex')];
};

describe('guests in a secret chat’s call', () => {
  it('a link needs the group’s epoch and the guest’s key with its MAC; the sealed key reaches that guest only', async () => {
    // The secret the members' devices derive from the MLS exporter (here any 32 bytes): it never goes to the server.
    const linkSecret = crypto.getRandomValues(new Uint8Array(32));
    const callKey = { epoch: 3, key: crypto.getRandomValues(new Uint8Array(32)) };

    const noEpoch = await api.post('/api/guest-links', { room, hours: 1 }, anna.accessToken);
    expect(noEpoch.status).toBe(400);
    expect(noEpoch.body.message).toBe('Для звонка секретного чата укажите эпоху группы: ключ ссылки выводится из неё');
    const made = await api.post('/api/guest-links', { room, hours: 1, epoch: 3 }, anna.accessToken);
    expect(made.status).toBe(200);
    const code = made.body.link.code as string;
    expect(made.body.link.epoch).toBe(3);
    expect((await api.get(`/api/guest/${code}`)).body).toMatchObject({ encrypted: true });

    // A knock without the key (the link opened without its fragment) is refused.
    const bare = await api.post(`/api/guest/${code}/knock`, { name: 'Гость' });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('Звонок зашифрован: откройте ссылку целиком, вместе с частью после «#»');

    const borisSocket = await connect(srv.url, boris.accessToken);
    const strangerSocket = await connect(srv.url, stranger.accessToken);
    const keys = await makeGuestKeys();
    const mac = await knockMac(linkSecret, code, keys.publicKey);
    type Knocked = { id: string; e2ee: { code: string; epoch: number; publicKey: string; mac: string } };
    const rung = next<{ guests: Knocked[] }>(borisSocket, 'guest:waiting', (p) => p.guests.length > 0);
    const res = await api.post(`/api/guest/${code}/knock`, {
      name: 'Сантехник',
      publicKey: keys.publicKey,
      keyMac: mac,
    });
    expect(res.status).toBe(200);
    const knock = res.body as { knockId: string; secret: string };
    // The deciders get the key and the MAC as the guest sent them, with the link they check it against.
    const waiting = (await rung).guests[0] as Knocked;
    expect(waiting).toMatchObject({ id: knock.knockId, e2ee: { code, epoch: 3, publicKey: keys.publicKey, mac } });
    expect(await verifyKnock(linkSecret, code, waiting.e2ee.publicKey, waiting.e2ee.mac)).toBe(true);
    const listed = await api.get(`/api/guest-links/waiting?room=${room}`, anna.accessToken);
    expect(listed.body.guests[0].e2ee).toEqual({ code, epoch: 3, publicKey: keys.publicKey, mac });

    // A second guest waits at the same link: it must hear nothing of the first one's key.
    const other = await makeGuestKeys();
    const otherKnock = (
      await api.post(`/api/guest/${code}/knock`, {
        name: 'Сосед',
        publicKey: other.publicKey,
        keyMac: await knockMac(linkSecret, code, other.publicKey),
      })
    ).body as { knockId: string; secret: string };
    const guest = await guestSocket(knock);
    const neighbour = await guestSocket(otherKnock);
    await guest.wait((e) => e.payload.state === 'waiting');

    // «Впустить» without a sealed key is refused; a stranger cannot admit.
    expect(await ack(borisSocket, 'guest:admit', { knockId: knock.knockId })).toEqual({
      ok: false,
      message: 'Впустить гостя в зашифрованный звонок можно только с ключом, зашифрованным для него',
    });
    const sealed = await sealCallKey({ linkSecret, knockId: knock.knockId, ...waiting.e2ee, callKey });
    expect(await ack(strangerSocket, 'guest:admit', { knockId: knock.knockId, sealed })).toEqual({
      ok: false,
      message: 'Беседа не найдена',
    });
    expect(await ack(borisSocket, 'guest:admit', { knockId: knock.knockId, sealed })).toEqual({ ok: true });
    const admitted = await guest.wait((e) => e.payload.state === 'admitted');
    expect(admitted).toEqual({ state: 'admitted', sealed });
    const opened = await openCallKey({ linkSecret, code, knockId: knock.knockId, keys, sealed });
    expect(opened.key).toEqual(callKey.key);
    expect((await api.post(`/api/guest/knocks/${knock.knockId}/token`, { secret: knock.secret })).status).toBe(200);

    // A newer epoch's key: relayed to the admitted guest only; refused for one who waits, and for a stranger.
    const next4 = { epoch: 4, key: crypto.getRandomValues(new Uint8Array(32)) };
    const sealed4 = await sealCallKey({ linkSecret, knockId: knock.knockId, ...waiting.e2ee, callKey: next4 });
    expect(await ack(strangerSocket, 'guest:key', { knockId: knock.knockId, sealed: sealed4 })).toEqual({
      ok: false,
      message: 'Беседа не найдена',
    });
    expect(await ack(borisSocket, 'guest:key', { knockId: otherKnock.knockId, sealed: sealed4 })).toEqual({
      ok: false,
      message: 'Гостя нет в звонке',
    });
    expect(await ack(borisSocket, 'guest:key', { knockId: knock.knockId, sealed: sealed4 })).toEqual({ ok: true });
    expect(await guest.wait((e) => e.event === 'guest:key')).toEqual({ sealed: sealed4 });
    expect((await openCallKey({ linkSecret, code, knockId: knock.knockId, keys, sealed: sealed4 })).epoch).toBe(4);
    await roundTrip(borisSocket);
    expect(neighbour.heard.map((e) => e.payload)).toEqual([{ state: 'waiting' }]);

    // Removed: no more keys for that guest.
    expect(await ack(borisSocket, 'guest:remove', { knockId: knock.knockId })).toEqual({ ok: true });
    expect(await ack(borisSocket, 'guest:key', { knockId: knock.knockId, sealed: sealed4 })).toEqual({
      ok: false,
      message: 'Гостя нет в звонке',
    });

    // Neither the database nor the log holds the link secret, a call key or the sealed blobs; the guest's public key
    // and its MAC are stored (public values).
    const everything = await wholeDatabase();
    expect(everything).toContain(keys.publicKey);
    expect(everything).toContain(mac);
    const logged = log.join('\n');
    for (const secret of [
      ...spellings(linkSecret),
      ...spellings(callKey.key),
      ...spellings(next4.key),
      sealed,
      sealed4,
    ]) {
      expect(everything).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect(log.length).toBeGreaterThan(0);
  });

  it('a plain call’s link ignores a key, and a plain call’s guest cannot be sent one', async () => {
    const plain = (await api.post('/api/conversations', { participantIds: [boris.user.id] }, anna.accessToken)).body
      .conversation.id as string;
    const made = await api.post('/api/guest-links', { room: `conv-${plain}`, hours: 1 }, anna.accessToken);
    const code = made.body.link.code as string;
    expect(made.body.link.epoch).toBeUndefined();
    expect((await api.get(`/api/guest/${code}`)).body.encrypted).toBeUndefined();
    const knock = (await api.post(`/api/guest/${code}/knock`, { name: 'Гость' })).body as { knockId: string };
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: knock.knockId })).toEqual({ ok: true });
    const junk = 'A'.repeat(120);
    expect(await ack(annaSocket, 'guest:key', { knockId: knock.knockId, sealed: junk })).toEqual({
      ok: false,
      message: 'Ключ передаётся только гостю зашифрованного звонка',
    });
    // A malformed sealed key is refused by the contract.
    expect((await ack(annaSocket, 'guest:key', { knockId: knock.knockId, sealed: 'не ключ' })).ok).toBe(false);
  });

  it('an admitted guest whose socket missed «Впустить» asks for its key: only the deciders hear it, and reseal it', async () => {
    const linkSecret = crypto.getRandomValues(new Uint8Array(32));
    const callKey = { epoch: 5, key: crypto.getRandomValues(new Uint8Array(32)) };
    const code = (await api.post('/api/guest-links', { room, hours: 1, epoch: 5 }, anna.accessToken)).body.link
      .code as string;
    const keys = await makeGuestKeys();
    const mac = await knockMac(linkSecret, code, keys.publicKey);
    const knock = (await api.post(`/api/guest/${code}/knock`, { name: 'Тётя', publicKey: keys.publicKey, keyMac: mac }))
      .body as { knockId: string; secret: string };
    const other = await makeGuestKeys();
    const otherKnock = (
      await api.post(`/api/guest/${code}/knock`, {
        name: 'Дядя',
        publicKey: other.publicKey,
        keyMac: await knockMac(linkSecret, code, other.publicKey),
      })
    ).body as { knockId: string; secret: string };
    const [annaSocket, borisSocket, strangerSocket] = await Promise.all(
      [anna, boris, stranger].map((u) => connect(srv.url, u.accessToken)),
    );
    const requests = (s: Socket) => {
      const heard: unknown[] = [];
      s.on('guest:key-request', (p: unknown) => heard.push(p));
      return heard;
    };
    const [toAnna, toBoris, toStranger] = [annaSocket, borisSocket, strangerSocket].map(requests);

    // Still waiting: nothing to ask for.
    const early = await guestSocket(knock);
    expect(await ack(early.socket, 'guest:key-request')).toEqual({ ok: false, message: 'Вас ещё не впустили' });
    early.socket.disconnect();

    // Let in while the guest's socket is away: the sealed key went nowhere, and nothing kept it.
    const sealed = await sealCallKey({
      linkSecret,
      code,
      knockId: knock.knockId,
      publicKey: keys.publicKey,
      mac,
      callKey,
    });
    expect(await ack(borisSocket, 'guest:admit', { knockId: knock.knockId, sealed })).toEqual({ ok: true });
    const back = await guestSocket(knock);
    expect(await back.wait((e) => e.event === 'guest:state')).toEqual({ state: 'admitted' });

    // It asks: the deciders hear its key, its MAC and the link, and a stranger hears nothing.
    expect(await ack(back.socket, 'guest:key-request')).toEqual({ ok: true });
    const asked = { room, knockId: knock.knockId, e2ee: { code, epoch: 5, publicKey: keys.publicKey, mac } };
    await Promise.all([annaSocket, borisSocket, strangerSocket].map(roundTrip));
    expect(toBoris).toEqual([asked]);
    expect(toAnna).toEqual([asked]);
    expect(toStranger).toEqual([]);

    // Asking again at once is refused (429) until the window has passed; a guest still waiting cannot ask.
    expect(await ack(back.socket, 'guest:key-request')).toEqual({
      ok: false,
      message: 'Ключ звонка уже запрошен: подождите несколько секунд',
    });
    const waitingOne = await guestSocket(otherKnock);
    expect(await ack(waitingOne.socket, 'guest:key-request')).toEqual({ ok: false, message: 'Вас ещё не впустили' });
    clock.advance(GUEST.keyRequestEveryMs);
    expect(await ack(back.socket, 'guest:key-request')).toEqual({ ok: true });
    // Any other event from a guest's socket is still refused.
    expect(await ack(back.socket, 'guest:admit', { knockId: otherKnock.knockId })).toEqual({
      ok: false,
      message: 'Гость ничего не отправляет',
    });

    // A decider's device checks the MAC and seals the key afresh: it reaches that guest, and opens.
    expect(await verifyKnock(linkSecret, code, asked.e2ee.publicKey, asked.e2ee.mac)).toBe(true);
    const resealed = await sealCallKey({ linkSecret, knockId: knock.knockId, ...asked.e2ee, callKey });
    expect(await ack(annaSocket, 'guest:key', { knockId: knock.knockId, sealed: resealed })).toEqual({ ok: true });
    const got = (await back.wait((e) => e.event === 'guest:key')) as { sealed: string };
    expect((await openCallKey({ linkSecret, code, knockId: knock.knockId, keys, sealed: got.sealed })).key).toEqual(
      callKey.key,
    );
    expect(waitingOne.heard.map((e) => e.event)).toEqual(['guest:state']);

    // Removed: its open socket may ask no more, and a new one is refused.
    expect(await ack(borisSocket, 'guest:remove', { knockId: knock.knockId })).toEqual({ ok: true });
    clock.advance(GUEST.keyRequestEveryMs);
    expect(await ack(back.socket, 'guest:key-request')).toEqual({ ok: false, message: 'Вас удалили из звонка' });
    await expect(guestSocket(knock)).rejects.toThrow('Ссылка недействительна');

    const everything = await wholeDatabase();
    const logged = log.join('\n');
    for (const secret of [...spellings(linkSecret), ...spellings(callKey.key), sealed, resealed]) {
      expect(everything).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });

  it('a plain call’s guest has no key to ask for', async () => {
    const plain = (await api.post('/api/conversations', { participantIds: [boris.user.id] }, anna.accessToken)).body
      .conversation.id as string;
    const code = (await api.post('/api/guest-links', { room: `conv-${plain}`, hours: 1 }, anna.accessToken)).body.link
      .code as string;
    const knock = (await api.post(`/api/guest/${code}/knock`, { name: 'Гость' })).body as {
      knockId: string;
      secret: string;
    };
    const annaSocket = await connect(srv.url, anna.accessToken);
    expect(await ack(annaSocket, 'guest:admit', { knockId: knock.knockId })).toEqual({ ok: true });
    const g = await guestSocket(knock);
    expect(await ack(g.socket, 'guest:key-request')).toEqual({
      ok: false,
      message: 'Ключ звонка нужен только гостю зашифрованного звонка',
    });
  });
});
