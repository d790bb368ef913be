// Polls over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: making one and its Russian 400s (none in a
// secret chat), four voters live over sockets, races (four people at once, one person clicking many times, a quiz
// answered twice at once), multiple choice, taking a vote back, closing (who may, and the 409 after), a quiz's answer
// revealed only to whoever answered, anonymity (no voter's id in any answer or event), members only, search and
// previews, and two server processes behind Redis.
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message, PollInfo } from '../../src/contract/entities';
import { client, startTestServer, type TestServer } from './harness';
import { redisAvailable, redisUrl } from './redis-probe';
import { secretChat } from './secret-helpers';
import { type Api, ack, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let gleb: TestUser;
let dima: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera, gleb, dima] = await Promise.all(
    ['anna', 'boris', 'vera', 'gleb', 'dima'].map((n) => api.user(n)),
  );
  for (const other of [boris, vera, gleb]) await befriend(api, anna, other);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

type Updated = { conversationId: string; messageId: string; poll: PollInfo };

async function group(owner: TestUser, members: TestUser[]): Promise<string> {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title: 'Опросная', isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id;
}

async function poll(u: TestUser, conversationId: string, extra: Record<string, unknown> = {}): Promise<Message> {
  const res = await api.post(
    '/api/polls',
    { conversationId, question: 'Куда пойдём в пятницу?', options: ['Кино', 'Театр', 'Домой'], ...extra },
    u.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.message as Message;
}

const vote = (u: TestUser, messageId: string, optionIds: string[]) =>
  api.post('/api/polls/vote', { messageId, optionIds }, u.accessToken);
const retract = (u: TestUser, messageId: string) => api.post('/api/polls/retract', { messageId }, u.accessToken);
const close = (u: TestUser, messageId: string) => api.post('/api/polls/close', { messageId }, u.accessToken);

async function pollAs(u: TestUser, conversationId: string, messageId: string): Promise<PollInfo> {
  const res = await api.get(`/api/conversations/${conversationId}/messages?limit=100`, u.accessToken);
  expect(res.status).toBe(200);
  const m = (res.body.messages as Message[]).find((x) => x.id === messageId);
  if (!m?.poll) throw new Error('poll not in the history');
  return m.poll;
}

const counts = (p: PollInfo) => p.options.map((o) => o.votes);

async function joined(u: TestUser, conversationId: string): Promise<Socket> {
  const s = await connect(srv.url, u.accessToken);
  expect(await ack(s, 'conversation:join', conversationId)).toEqual({ ok: true });
  return s;
}

describe('making a poll', () => {
  it('is a POLL message whose content is the question; the chat hears it and lists it', async () => {
    const id = await group(anna, [boris]);
    const borisSocket = await joined(boris, id);
    const heard = next<{ message: Message }>(borisSocket, 'message:new');
    const m = await poll(anna, id, { question: '  Куда пойдём в пятницу?  ', options: [' Кино ', 'Театр'] });
    expect(m.type).toBe('POLL');
    expect(m.content).toBe('Куда пойдём в пятницу?');
    expect(m.poll).toEqual({
      question: 'Куда пойдём в пятницу?',
      options: [
        { id: '0', text: 'Кино', votes: 0, voters: [] },
        { id: '1', text: 'Театр', votes: 0, voters: [] },
      ],
      multiple: false,
      anonymous: false,
      quiz: false,
      closed: false,
      voterCount: 0,
      version: 0,
      mine: [],
    });
    expect((await heard).message.id).toBe(m.id);
    const list = await api.get('/api/conversations', boris.accessToken);
    const entry = list.body.conversations.find((c: { conversation: { id: string } }) => c.conversation.id === id);
    expect(entry.conversation.messages[0]).toMatchObject({ type: 'POLL', content: 'Куда пойдём в пятницу?' });
  });

  it('refuses 1 option, 11 options, an empty or repeated option, a long question, a bad quiz — in Russian', async () => {
    const id = await group(anna, [boris]);
    const cases: [Record<string, unknown>, string][] = [
      [{ options: ['Один'] }, 'Нужно хотя бы 2 варианта ответа'],
      [{ options: Array.from({ length: 11 }, (_, i) => `Вариант ${i}`) }, 'Вариантов ответа — не больше 10'],
      [{ options: ['Кино', '  '] }, 'Вариант ответа не может быть пустым'],
      [{ options: ['Кино', 'кино'] }, 'Варианты ответа не должны повторяться'],
      [{ options: ['Кино', 'т'.repeat(101)] }, 'Вариант ответа — не длиннее 100 символов'],
      [{ question: 'в'.repeat(301) }, 'Вопрос — не длиннее 300 символов'],
      [{ question: '   ' }, 'Напишите вопрос'],
      [{ correctOption: 5 }, 'Правильный ответ должен быть одним из вариантов'],
      [{ correctOption: 0, multiple: true }, 'В викторине выбирают один ответ'],
      [{ explanation: 'Потому что' }, 'Пояснение бывает только у викторины'],
    ];
    for (const [extra, message] of cases) {
      const res = await api.post(
        '/api/polls',
        { conversationId: id, question: 'Вопрос?', options: ['Кино', 'Театр'], ...extra },
        anna.accessToken,
      );
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    // A secret chat's messages are ciphertext: no poll there.
    const secret = await secretChat(api, anna, [boris]);
    const inSecret = await api.post(
      '/api/polls',
      { conversationId: secret, question: 'Вопрос?', options: ['Да', 'Нет'] },
      anna.accessToken,
    );
    expect(inSecret.status).toBe(400);
    expect(inSecret.body.message).toBe('В секретных чатах опросов нет');
    const outsider = await api.post(
      '/api/polls',
      { conversationId: id, question: 'Вопрос?', options: ['Да', 'Нет'] },
      dima.accessToken,
    );
    expect(outsider.status).toBe(404);
  });
});

describe('voting', () => {
  it('four voters at once over sockets: every socket ends with the exact counts, live', async () => {
    const id = await group(anna, [boris, vera, gleb]);
    const m = await poll(anna, id);
    const voters = [anna, boris, vera, gleb];
    const sockets = await Promise.all(voters.map((u) => joined(u, id)));
    // Each socket's last word: the update with the highest version.
    const finals = sockets.map((s) => next<Updated>(s, 'poll:updated', (p) => p.poll.version === 4));
    const answers = await Promise.all(voters.map((u, i) => vote(u, m.id, [String(i % 2)])));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const got of await Promise.all(finals)) {
      expect(counts(got.poll)).toEqual([2, 2, 0]);
      expect(got.poll.voterCount).toBe(4);
    }
    const seen = await pollAs(vera, id, m.id);
    expect(counts(seen)).toEqual([2, 2, 0]);
    expect(seen.mine).toEqual(['0']);
    expect(seen.options[0].voters?.sort()).toEqual([anna.user.id, vera.user.id].sort());
  });

  it("one voter clicking many times at once is counted once; the others' counts stay exact", async () => {
    const id = await group(anna, [boris, vera]);
    const m = await poll(anna, id);
    await vote(vera, m.id, ['2']);
    const clicks = await Promise.all([0, 1, 0, 1, 0, 1].map((o) => vote(boris, m.id, [String(o)])));
    expect(clicks.every((c) => c.status === 200)).toBe(true);
    const p = await pollAs(anna, id, m.id);
    expect(p.voterCount).toBe(2);
    expect(p.options[0].votes + p.options[1].votes).toBe(1);
    expect(p.options[2].votes).toBe(1);
    // The same option clicked twice at once.
    await Promise.all([vote(anna, m.id, ['2']), vote(anna, m.id, ['2'])]);
    expect((await pollAs(anna, id, m.id)).options[2].votes).toBe(2);
  });

  it('single choice takes one option; multiple choice a set that a new vote replaces; unknown options are 400', async () => {
    const id = await group(anna, [boris]);
    const single = await poll(anna, id);
    const two = await vote(boris, single.id, ['0', '1']);
    expect(two.status).toBe(400);
    expect(two.body.message).toBe('В этом опросе выбирают один вариант');
    expect((await vote(boris, single.id, ['7'])).body.message).toBe('Такого варианта ответа нет');
    expect((await vote(boris, single.id, [])).status).toBe(400);

    const multi = await poll(anna, id, { multiple: true });
    const first = await vote(boris, multi.id, ['0', '2', '2']);
    expect(first.status).toBe(200);
    expect(first.body.poll.mine).toEqual(['0', '2']);
    expect(counts(first.body.poll)).toEqual([1, 0, 1]);
    const again = await vote(boris, multi.id, ['1']);
    expect(counts(again.body.poll)).toEqual([0, 1, 0]);
    expect(again.body.poll.voterCount).toBe(1);
  });

  it('«Отменить голос» takes the vote back, live for the others', async () => {
    const id = await group(anna, [boris]);
    const m = await poll(anna, id);
    await vote(boris, m.id, ['1']);
    const annaSocket = await joined(anna, id);
    const heard = next<Updated>(annaSocket, 'poll:updated');
    const res = await retract(boris, m.id);
    expect(res.status).toBe(200);
    expect(res.body.poll.mine).toEqual([]);
    const got = await heard;
    expect(counts(got.poll)).toEqual([0, 0, 0]);
    expect(got.poll.mine).toBeUndefined();
  });
});

describe('closing', () => {
  it('the author or a group admin closes it; a plain member may not; a closed poll refuses votes with 409', async () => {
    const id = await group(anna, [boris, vera]);
    const byBoris = await poll(boris, id);
    const notVera = await close(vera, byBoris.id);
    expect(notVera.status).toBe(403);
    expect(notVera.body.message).toBe('Завершить опрос могут автор и администраторы группы');
    // The owner closes a member's poll.
    const veraSocket = await joined(vera, id);
    const heard = next<Updated>(veraSocket, 'poll:updated');
    expect((await close(anna, byBoris.id)).body.poll.closed).toBe(true);
    expect((await heard).poll.closed).toBe(true);
    const late = await vote(vera, byBoris.id, ['0']);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Опрос завершён, голосовать уже нельзя');
    expect((await retract(vera, byBoris.id)).status).toBe(409);
    // Closing again changes nothing.
    expect((await close(boris, byBoris.id)).status).toBe(200);
    const byVera = await poll(vera, id);
    expect((await close(vera, byVera.id)).status).toBe(200);
  });
});

describe('a quiz', () => {
  it('hides the answer until one answers; is answered once, even by clicks at once; cannot be taken back', async () => {
    const id = await group(anna, [boris, vera]);
    const m = await poll(anna, id, { correctOption: 1, explanation: 'Театр начинается с вешалки' });
    expect(m.poll?.quiz).toBe(true);
    expect(m.poll?.correctOptionId).toBeNull();
    expect(JSON.stringify(m)).not.toContain('вешалки');
    const clicks = await Promise.all([vote(boris, m.id, ['0']), vote(boris, m.id, ['1']), vote(boris, m.id, ['0'])]);
    expect(clicks.map((c) => c.status).sort()).toEqual([200, 409, 409]);
    expect(clicks.find((c) => c.status === 409)?.body.message).toBe('В викторине отвечают один раз');
    const mine = await pollAs(boris, id, m.id);
    expect(mine.voterCount).toBe(1);
    expect(mine.correctOptionId).toBe('1');
    expect(mine.explanation).toBe('Театр начинается с вешалки');
    // Vera has not answered: the answer is still hidden from her, in the history and in the events.
    const hers = await pollAs(vera, id, m.id);
    expect(hers.correctOptionId).toBeNull();
    expect(hers.explanation).toBeNull();
    const veraSocket = await joined(vera, id);
    const heard = next<Updated>(veraSocket, 'poll:updated');
    await vote(anna, m.id, ['1']);
    expect(JSON.stringify(await heard)).not.toContain('вешалки');
    const back = await retract(boris, m.id);
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('Ответ в викторине отменить нельзя');
    // Closed: everyone sees the answer.
    await close(anna, m.id);
    expect((await pollAs(vera, id, m.id)).correctOptionId).toBe('1');
  });
});

describe('anonymity and access', () => {
  it("an anonymous poll's answers and events never name who voted", async () => {
    const id = await group(anna, [boris, vera]);
    const m = await poll(anna, id, { anonymous: true });
    const annaSocket = await joined(anna, id);
    const seen = recorder(annaSocket);
    const voted = await vote(boris, m.id, ['0']);
    await vote(vera, m.id, ['1']);
    await roundTrip(annaSocket);
    const ids = [boris.user.id, vera.user.id];
    const history = await api.get(`/api/conversations/${id}/messages?limit=100`, anna.accessToken);
    const shown = (history.body.messages as Message[]).find((x) => x.id === m.id);
    expect(counts(shown?.poll as PollInfo)).toEqual([1, 1, 0]);
    const events = seen.seen.filter((e) => e.event === 'poll:updated');
    expect(events).toHaveLength(2);
    for (const json of [JSON.stringify(shown?.poll), JSON.stringify(events), JSON.stringify(voted.body)]) {
      for (const uid of ids) expect(json).not.toContain(uid);
      expect(json).not.toContain('voters');
    }
    // The voter sees their own choice, nobody else's.
    expect((await pollAs(vera, id, m.id)).mine).toEqual(['1']);
    expect((await pollAs(anna, id, m.id)).mine).toEqual([]);
  });

  it('a non-member and a removed member can neither see nor vote', async () => {
    const id = await group(anna, [boris, vera]);
    const m = await poll(anna, id);
    expect((await vote(dima, m.id, ['0'])).status).toBe(404);
    expect((await close(dima, m.id)).status).toBe(404);
    const removed = await api.post(
      '/api/conversations/members/remove',
      { conversationId: id, userId: vera.user.id },
      anna.accessToken,
    );
    expect(removed.status).toBe(200);
    const late = await vote(vera, m.id, ['0']);
    expect(late.status).toBe(404);
    expect(late.body.message).toBe('Опрос не найден');
    expect((await retract(vera, m.id)).status).toBe(404);
    expect((await api.get(`/api/conversations/${id}/messages`, vera.accessToken)).status).toBe(404);
  });

  it('a poll cannot be edited or forwarded; search finds its question', async () => {
    const id = await group(anna, [boris]);
    const m = await poll(anna, id, { question: 'Какой фреймворк выбираем?' });
    const edit = await api.post('/api/messages/edit', { messageId: m.id, content: 'Другое' }, anna.accessToken);
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe('Вопрос опроса изменить нельзя');
    const forward = await api.post(
      '/api/messages/forward',
      { messageIds: [m.id], conversationIds: [id] },
      anna.accessToken,
    );
    expect(forward.status).toBe(400);
    const found = await api.get(`/api/search?q=${encodeURIComponent('фреймворк')}`, boris.accessToken);
    expect(found.status).toBe(200);
    expect(found.body.results.map((r: { message: Message }) => r.message.id)).toContain(m.id);
  });
});

const redis = await redisAvailable();

describe.skipIf(!redis)('two server processes behind Redis', () => {
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    one = await startTestServer({ redisUrl });
    two = await startTestServer({ redisUrl, dataDir: one.config.dataDir, databaseUrl: one.config.databaseUrl });
  });
  afterAll(async () => {
    closeAll();
    await two?.close();
    await one?.close();
  });

  it('a vote on one process reaches a member whose socket is on the other', async () => {
    const api1 = client(one.url);
    const [owner, member] = await Promise.all(['p-own', 'p-mem'].map((n) => api1.user(n)));
    await befriend(api1, owner, member);
    const made = await api1.post(
      '/api/conversations',
      { participantIds: [member.user.id], title: 'Цех', isGroup: true },
      owner.accessToken,
    );
    const id = made.body.conversation.id as string;
    const created = await api1.post(
      '/api/polls',
      { conversationId: id, question: 'Обед?', options: ['Да', 'Нет'] },
      owner.accessToken,
    );
    const memberOnTwo = await connect(two.url, member.accessToken);
    expect(await ack(memberOnTwo, 'conversation:join', id)).toEqual({ ok: true });
    const heard = next<Updated>(memberOnTwo, 'poll:updated');
    expect(
      (await api1.post('/api/polls/vote', { messageId: created.body.message.id, optionIds: ['0'] }, owner.accessToken))
        .status,
    ).toBe(200);
    expect(counts((await heard).poll)).toEqual([1, 0]);
  });
});
