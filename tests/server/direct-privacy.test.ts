// «Кто может мне писать» and `@все` over the real server, on SQLite and (with TEST_PG_URL) PostgreSQL: co-members of a
// group who are not friends open a direct chat and write; each person's choice (everyone, groups, friends) is honoured
// with a Russian 403; a block still refuses; the first message of a chat opened while it was allowed is checked again,
// a chat that has messages stays usable; `@все` mentions every member who has not muted the group, and in a group of
// more than 20 only from the owner and admins (docs/behaviour.md §10.26).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_PRIVACY_REFUSALS } from '../../src/contract/message-privacy';
import { client, startTestServer, type TestServer } from './harness';
import { opaque, secretDevice } from './secret-helpers';
import { type Api, befriend, closeAll, type TestUser } from './socket-helpers';

let srv: TestServer;
let api: Api;
let anna: TestUser;
let boris: TestUser;
let vera: TestUser;
let gleb: TestUser;
let stranger: TestUser;
let groupId: string;

async function group(owner: TestUser, members: TestUser[]): Promise<string> {
  const res = await api.post(
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title: 'Отдел', isGroup: true },
    owner.accessToken,
  );
  expect(res.status).toBe(200);
  return res.body.conversation.id;
}

const openWith = (from: TestUser, to: TestUser) =>
  api.post('/api/conversations/with', { userId: to.user.id }, from.accessToken);
const send = (u: TestUser, conversationId: string, content: string) =>
  api.post('/api/conversations/send', { conversationId, type: 'TEXT', content }, u.accessToken);
const choose = async (u: TestUser, messagePrivacy: string) => {
  const res = await api.patch('/api/status/me', { messagePrivacy }, u.accessToken);
  expect(res.status).toBe(200);
  expect(res.body.user.messagePrivacy).toBe(messagePrivacy);
};

beforeAll(async () => {
  srv = await startTestServer();
  api = client(srv.url);
  [anna, boris, vera, gleb, stranger] = await Promise.all(
    ['anna', 'boris', 'vera', 'gleb', 'eve'].map((n) => api.user(n)),
  );
  // Anna is everyone's friend; Boris, Vera and Gleb only share her group.
  for (const other of [boris, vera, gleb]) await befriend(api, anna, other);
  groupId = await group(anna, [boris, vera, gleb]);
});
afterAll(() => srv?.close());
afterEach(() => closeAll());

describe('who may write to me', () => {
  it('is «Участники общих групп» until chosen, and the choice is validated', async () => {
    const me = await api.get('/api/status/me', vera.accessToken);
    expect(me.body.user.messagePrivacy).toBe('groups');
    const bad = await api.patch('/api/status/me', { messagePrivacy: 'nobody' }, vera.accessToken);
    expect(bad.status).toBe(400);
    expect((await api.get('/api/status/me', vera.accessToken)).body.user.messagePrivacy).toBe('groups');
  });

  it('lets co-members who are not friends open a direct chat and write both ways', async () => {
    const opened = await openWith(boris, vera);
    expect(opened.status).toBe(200);
    expect(opened.body.conversation.isGroup).toBe(false);
    const id = opened.body.conversation.id;
    expect((await send(boris, id, 'Привет, Вера')).status).toBe(200);
    expect((await send(vera, id, 'Привет, Борис')).status).toBe(200);
    const history = await api.get(`/api/conversations/${id}/messages`, vera.accessToken);
    expect(history.body.messages.map((m: { content: string }) => m.content)).toEqual(['Привет, Вера', 'Привет, Борис']);
    // The same chat from the other side.
    expect((await openWith(vera, boris)).body.conversation.id).toBe(id);
  });

  it('refuses a stranger by default and lets them in with «Все участники сервера»', async () => {
    const refused = await openWith(stranger, gleb);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.groups);
    // A create request with one person is the direct chat, under the same rule.
    const asCreate = await api.post('/api/conversations', { participantIds: [gleb.user.id] }, stranger.accessToken);
    expect(asCreate.status).toBe(403);
    await choose(gleb, 'everyone');
    const opened = await openWith(stranger, gleb);
    expect(opened.status).toBe(200);
    expect((await send(stranger, opened.body.conversation.id, 'Здравствуйте')).status).toBe(200);
    // Groups still need friends.
    const grp = await api.post(
      '/api/conversations',
      { participantIds: [gleb.user.id], isGroup: true, title: 'x' },
      stranger.accessToken,
    );
    expect(grp.status).toBe(403);
  });

  it('«Только друзья» refuses a co-member, never a friend; an existing chat stays usable', async () => {
    const boris2 = await openWith(boris, gleb);
    expect(boris2.status).toBe(200);
    expect((await send(boris, boris2.body.conversation.id, 'Успел написать')).status).toBe(200);
    await choose(gleb, 'friends');
    const refused = await openWith(vera, gleb);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.friends);
    expect(refused.body.message).toBe('Пользователь принимает сообщения только от друзей');
    expect((await openWith(anna, gleb)).status).toBe(200);
    // Boris's chat has messages: it goes on, both ways.
    expect((await send(boris, boris2.body.conversation.id, 'И ещё')).status).toBe(200);
    expect((await send(gleb, boris2.body.conversation.id, 'Отвечаю')).status).toBe(200);
    await choose(gleb, 'groups');
  });

  it('checks the first message again when the chat was opened while allowed', async () => {
    const opened = await openWith(vera, gleb);
    expect(opened.status).toBe(200);
    await choose(gleb, 'friends');
    const first = await send(vera, opened.body.conversation.id, 'Можно?');
    expect(first.status).toBe(403);
    expect(first.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.friends);
    // Gleb may answer the chat Vera opened; then it is started and stays usable.
    expect((await send(gleb, opened.body.conversation.id, 'Пишите')).status).toBe(200);
    expect((await send(vera, opened.body.conversation.id, 'Спасибо')).status).toBe(200);
    await choose(gleb, 'groups');
  });

  it('a block refuses whatever the choice', async () => {
    const blocker = await api.user('blocker');
    const blocked = await api.user('blocked');
    await befriend(api, anna, blocker);
    await befriend(api, anna, blocked);
    await group(anna, [blocker, blocked]);
    await choose(blocker, 'everyone');
    expect((await api.post('/api/users/block', { userId: blocked.user.id }, blocker.accessToken)).status).toBe(200);
    const theirs = await openWith(blocked, blocker);
    expect(theirs.status).toBe(403);
    expect(theirs.body.message).toBe('Пользователь ограничил круг тех, кто может ему писать');
    const mine = await openWith(blocker, blocked);
    expect(mine.status).toBe(403);
    expect(mine.body.message).toBe('Вы заблокировали этого пользователя');
  });

  it('someone who left every shared group is a stranger again', async () => {
    const leaver = await api.user('leaver');
    await befriend(api, anna, leaver);
    const g = await group(anna, [leaver, vera]);
    expect((await openWith(leaver, gleb)).status).toBe(403);
    const opened = await openWith(leaver, vera);
    expect(opened.status).toBe(200);
    expect((await api.post('/api/conversations/leave', { conversationId: g }, leaver.accessToken)).status).toBe(200);
    // The chat opened but never written to: its first message is checked now.
    const first = await send(leaver, opened.body.conversation.id, 'Привет');
    expect(first.status).toBe(403);
    expect(first.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.groups);
  });
});

describe('a secret direct chat', () => {
  // What the client does to start one: claim the peer's key packages, then create the chat with the welcome.
  async function startSecret(from: TestUser, to: TestUser, theirDevice: string) {
    const deviceId = await secretDevice(api, from.accessToken);
    const claim = await api.post('/api/secret/key-packages/claim', { userIds: [to.user.id] }, from.accessToken);
    const create = await api.post(
      '/api/secret/conversations',
      {
        deviceId,
        memberIds: [to.user.id],
        deviceIds: [theirDevice],
        groupId: opaque(32),
        welcome: opaque(200),
      },
      from.accessToken,
    );
    return { claim, create };
  }

  it('follows the same rule as a plain one: a co-member may start it, a stranger or «Только друзья» may not', async () => {
    const [dina, egor, fedor] = await Promise.all(['dina', 'egor', 'fedor'].map((n) => api.user(n)));
    for (const u of [dina, egor]) await befriend(api, anna, u);
    await group(anna, [dina, egor]);
    const egorDevice = await secretDevice(api, egor.accessToken);
    const fedorDevice = await secretDevice(api, fedor.accessToken);

    const coMember = await startSecret(dina, egor, egorDevice);
    expect(coMember.claim.status).toBe(200);
    expect(coMember.claim.body.packages.map((p: { deviceId: string }) => p.deviceId)).toEqual([egorDevice]);
    expect(coMember.create.status, JSON.stringify(coMember.create.body)).toBe(200);
    expect(coMember.create.body.conversation).toMatchObject({ isGroup: false, secret: true });

    const stranger = await startSecret(dina, fedor, fedorDevice);
    expect(stranger.claim.status).toBe(403);
    expect(stranger.create.status).toBe(403);
    expect(stranger.create.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.groups);

    await choose(egor, 'friends');
    const refused = await startSecret(dina, egor, egorDevice);
    expect(refused.claim.status).toBe(403);
    expect(refused.create.status).toBe(403);
    expect(refused.create.body.message).toBe(MESSAGE_PRIVACY_REFUSALS.friends);
  });
});

type Entry = { conversation: { id: string }; unreadMentions?: number };
const mentionsOf = async (u: TestUser, id: string) =>
  ((await api.get('/api/conversations', u.accessToken)).body.conversations as Entry[]).find(
    (e) => e.conversation.id === id,
  )?.unreadMentions ?? 0;

describe('@все', () => {
  it('mentions every member who has not muted the group', async () => {
    const mute = await api.patch(`/api/conversations/${groupId}/settings`, { mutedUntil: 'forever' }, gleb.accessToken);
    expect(mute.status).toBe(200);
    const res = await send(boris, groupId, 'Созвон в пять, @все');
    expect(res.status).toBe(200);
    expect([...res.body.message.mentions].sort()).toEqual([anna.user.id, vera.user.id].sort());
    expect(await mentionsOf(vera, groupId)).toBe(1);
    expect(await mentionsOf(gleb, groupId)).toBe(0);
    // Not a word of its own: plain text.
    const word = await send(boris, groupId, 'Спасибо @всем и a@все');
    expect(word.body.message.mentions).toBeUndefined();
    // A direct chat has nobody else to call.
    const direct = await openWith(boris, vera);
    const inDirect = await send(boris, direct.body.conversation.id, '@все');
    expect(inDirect.body.message.mentions).toBeUndefined();
    await api.patch(`/api/conversations/${groupId}/settings`, { mutedUntil: null }, gleb.accessToken);
  });

  it('in a group of more than 20 only the owner and admins may use it', async () => {
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => api.user(`m${i}`)));
    const big = await group(anna, [boris]);
    const invite = await api.post('/api/conversations/invites', { conversationId: big }, anna.accessToken);
    expect(invite.status).toBe(200);
    for (const m of many) {
      expect((await api.post(`/api/invites/${invite.body.invite.code}/join`, {}, m.accessToken)).status).toBe(200);
    }
    // 22 members: Boris's @все is plain text, not an error.
    const plain = await send(boris, big, '@все внимание');
    expect(plain.status).toBe(200);
    expect(plain.body.message.mentions).toBeUndefined();
    const byOwner = await send(anna, big, '@все внимание');
    expect(byOwner.body.message.mentions).toHaveLength(21);
    const role = await api.post(
      '/api/conversations/members/role',
      { conversationId: big, userId: boris.user.id, role: 'ADMIN' },
      anna.accessToken,
    );
    expect(role.status).toBe(200);
    const byAdmin = await send(boris, big, '@все теперь можно');
    expect(byAdmin.body.message.mentions).toHaveLength(21);
    expect(await mentionsOf(many[0], big)).toBe(2);
  });
});
