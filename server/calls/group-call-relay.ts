// A group's call over sockets (group-calls.ts holds its rules): start, join, leave, «Завершить для всех» and a
// decline that stops only one's own ringing; GET /api/conversations/:id/call for the call bar after a reload.
// Starting rings the other members of a group up to GROUP_CALL_RING_MAX as a direct call does (call:incoming
// with `group`); in a larger group the members who have not muted it are told once (groupCall:started, and a
// push to those with no tab open) and nobody rings. Joining from a second tab or device tells the first
// (groupCall:moved), which leaves the media room; a socket that was someone's place in a call marks them gone when its connection ends. Whoever loses the
// group (removed, left) is dropped from its call (media-rooms.ts tells this process). Raised hands (groupCall:hand)
// and an owner's or admin's «Выключить микрофон» / «Удалить из звонка» (POST /api/conversations/:id/call/mute|remove).
// With an external LiveKit its webhooks (media-rooms.ts's onMediaEvent) move the roster too.
import fp from 'fastify-plugin';
import { isGuestIdentity } from '../../src/contract/guest-rules';
import { memberOf } from '../conversations/membership';
import { contractRoute } from '../http/contract-route';
import type { SocketClient } from '../realtime/gateway';
import { caller } from './call-relay';
import { createGroupCalls } from './group-calls';

const CONVERSATION_ROOM = /^conv-(.+)$/;

export const groupCallRelay = fp(
  async (app) => {
    const { clock, db, lists, mediaRooms, realtime, push } = app;
    const calls = createGroupCalls({ db, clock, lists, realtime });
    app.addHook('onClose', async () => calls.close());
    const log = (err: unknown) => app.log.error({ err }, 'group call update failed');
    const groupTitle = async (conversationId: string) =>
      (await db.selectFrom('conversations').select('title').where('id', '=', conversationId).executeTakeFirst())
        ?.title ?? '';

    // Each socket is watched once, from the first time it takes a place in a call.
    const watched = new WeakSet<SocketClient>();
    const watch = (client: SocketClient) => {
      if (watched.has(client)) return;
      watched.add(client);
      const { userId, socketId } = client;
      client.onDisconnect(() => {
        calls.disconnected(userId, socketId).catch(log);
      });
    };
    const entered = async (conversationId: string, client: SocketClient, moved: boolean, video: boolean) => {
      watch(client);
      // My other tabs stop ringing; the one that was in the call leaves it.
      const from = await caller(db, client.userId);
      client.toOwnOtherSockets('call:accepted', { conversationId, from, video });
      if (moved) client.toOwnOtherSockets('groupCall:moved', { conversationId });
    };

    realtime.onClientEvent('groupCall:start', async ({ conversationId, video }, client) => {
      const { moved, ring, tell } = await calls.start(conversationId, client.userId, client.socketId, video);
      await entered(conversationId, client, moved, video);
      if (ring.length) {
        const from = await caller(db, client.userId);
        realtime.toUsers(ring, 'call:incoming', { conversationId, from, video, group: true });
        push.call(conversationId, ring, from, video);
      }
      if (tell.length) {
        const [from, group] = await Promise.all([caller(db, client.userId), groupTitle(conversationId)]);
        realtime.toUsers(tell, 'groupCall:started', { conversationId, from, video, title: group });
        push.groupCallStarted(conversationId, tell, from, group, video);
      }
    });
    realtime.onClientEvent('groupCall:join', async ({ conversationId }, client) => {
      const { moved } = await calls.join(conversationId, client.userId, client.socketId);
      const state = await calls.stateOf(conversationId);
      await entered(conversationId, client, moved, state?.video ?? false);
    });
    realtime.onClientEvent('groupCall:leave', async ({ conversationId }, { userId }) => {
      await calls.leave(conversationId, userId);
    });
    realtime.onClientEvent('groupCall:end', async ({ conversationId }, { userId }) => {
      await calls.endForAll(conversationId, userId);
    });
    realtime.onClientEvent('groupCall:decline', async ({ conversationId }, client) => {
      // Only my own ringing stops (every tab of mine); the call and the others' ringing go on.
      await memberOf(db, conversationId, client.userId);
      client.toOwnOtherSockets('call:declined', { conversationId, from: await caller(db, client.userId) });
    });
    realtime.onClientEvent('groupCall:hand', async ({ conversationId, raised }, { userId }) => {
      await calls.hand(conversationId, userId, raised);
    });
    // An owner's or admin's «Выключить микрофон»: the target's client turns its microphone off (they may turn it on
    // again). «Удалить из звонка»: out of the roster, told, and dropped by every process's media server, which then
    // refuses the token they held; pressing «Присоединиться» again brings them back with a fresh one.
    contractRoute(app, 'groupCallMute', async ({ userId, params, body }) => {
      await calls.moderate(params.id, userId, body.userId, 'mute');
      return { ok: true as const };
    });
    contractRoute(app, 'groupCallRemove', async ({ userId, params, body }) => {
      await calls.moderate(params.id, userId, body.userId, 'remove');
      mediaRooms.removeFromCall(params.id, [body.userId]);
      return { ok: true as const };
    });
    mediaRooms.onRemovedFromCall((conversationId, userIds) => {
      calls.dropped(conversationId, userIds).catch(log);
    });
    // An external LiveKit's webhooks: who is connected to the call's media room is in the call (guests are the
    // guest links' own: server/guests).
    mediaRooms.onMediaEvent(async (event) => {
      const conversationId = CONVERSATION_ROOM.exec(event.room)?.[1];
      if (!conversationId) return;
      if (event.kind === 'finished') return calls.mediaFinished(conversationId, event.at);
      if (isGuestIdentity(event.identity)) return;
      if (event.kind === 'joined') return calls.mediaJoined(conversationId, event.identity, event.sid, event.joinedAt);
      return calls.mediaLeft(conversationId, event.identity, event.sid);
    });
    contractRoute(app, 'groupCall', async ({ userId, params }) => ({ call: await calls.view(params.id, userId) }));
  },
  {
    name: 'group-call-relay',
    encapsulate: true,
    decorators: { fastify: ['clock', 'db', 'lists', 'mediaRooms', 'realtime', 'push', 'authenticate'] },
    dependencies: ['base', 'realtime', 'lists', 'push', 'media-rooms', 'authentication'],
  },
);
