// Web Push (docs/notifications.md): browsers subscribe and unsubscribe (kept per user and sign-in,
// at most PUSH.subscriptionsPerUser, removed on sign-out); a new message is pushed to the subscriptions of each
// recipient with no connected socket, coalesced per device and conversation; an incoming call is pushed to all
// of the callee's subscriptions at once (urgency high, short TTL), and a call started in a group too large to ring
// to its members with no connected socket. Each message is pushed by the one server process
// that stored it, so with several processes it is still pushed once. Payloads carry names and (if the user
// allows) a text preview, never a token.
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Message } from '../../src/contract/entities';
import { fromInGroup, messagePreview, type NotificationPayload, PUSH } from '../../src/contract/notification';
import { bearerToken, contractRoute } from '../http/contract-route';
import { badRequest, conflict, unauthorized } from '../http/errors';
import { Coalescer } from './coalescer';
import { endpointRefusal } from './endpoint-policy';

export const PUSH_ENDPOINT_TAKEN =
  'Этот адрес уведомлений уже подписан другим пользователем: он освободится, когда тот выйдет или отключит уведомления';

import { type PushOptions, type PushOutcome, sendPush, type Vapid } from './push-sender';

export interface PushNotifier {
  /**
   * A message stored: pushed to the recipients who have no connected socket, after the current turn (the send's
   * answer goes first); the recipients may still be on their way (a promise). Never throws.
   */
  message(message: Message, recipients: readonly string[] | Promise<readonly string[]>): void;
  /** A reminder stored in «Избранное» (server/scheduled/): pushed to its owner when they have no socket. */
  reminder(message: Message): void;
  /** An incoming call: pushed to every subscription of the callees. Never throws. */
  call(conversationId: string, callees: readonly string[], from: { id: string; name: string }, video: boolean): void;
  /**
   * A call started in a group too large to ring (`group`: its title): pushed, as a message is, to those of
   * `members` with no connected socket (an open tab shows it itself). Never throws.
   */
  groupCallStarted(
    conversationId: string,
    members: readonly string[],
    from: { id: string; name: string },
    group: string,
    video: boolean,
  ): void;
  /** Whether any of these users has a push subscription (a call may ring them though none is online). */
  anySubscribed(userIds: readonly string[]): Promise<boolean>;
  /** A sign-in ended: its subscriptions go. */
  signedOut(sessionId: string): Promise<void>;
  /** Resolves when the pushes started so far are done (tests, shutdown). */
  settled(): Promise<void>;
}

/** Resolves once the current turn's I/O (a send's answer among it) has been written. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

declare module 'fastify' {
  interface FastifyInstance {
    push: PushNotifier;
  }
}

interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  show_text: number;
}

interface MessageItem {
  sub: SubscriptionRow;
  payload: Extract<NotificationPayload, { kind: 'message' }>;
  hiddenText: boolean;
}

/** An avatar a notification can show: an uploaded image or an http(s) picture, not an emoji avatar. */
const iconOf = (avatarUrl: string | null | undefined) =>
  avatarUrl && !avatarUrl.startsWith('emoji:') ? avatarUrl : null;

export const pushPlugin = fp(
  async (app) => {
    const { db, config, metrics, secrets, realtime } = app;
    const vapid: Vapid = {
      subject: config.vapid.subject,
      publicKey: secrets.vapidPublicKey,
      privateKey: secrets.vapidPrivateKey,
    };
    const inFlight = new Set<Promise<unknown>>();
    const track = (p: Promise<unknown>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };

    const subscriptionsOf = (userIds: readonly string[]) =>
      userIds.length === 0
        ? Promise.resolve([] as (SubscriptionRow & { user_id: string })[])
        : db
            .selectFrom('push_subscriptions')
            .select(['id', 'user_id', 'endpoint', 'p256dh', 'auth', 'show_text'])
            .where('user_id', 'in', userIds)
            .execute();

    async function deliver(
      sub: SubscriptionRow,
      payload: NotificationPayload,
      options: PushOptions,
    ): Promise<PushOutcome> {
      // Checked again at send time: a row stored under another policy (or by hand) is not followed blindly.
      if (endpointRefusal(sub.endpoint, config.pushAllowLoopback)) {
        await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
        return 'gone';
      }
      const { outcome, status } = await sendPush(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        options,
        vapid,
      );
      if (outcome === 'sent') metrics.pushSent.inc();
      else metrics.pushFailed.inc({ reason: outcome });
      if (outcome === 'gone') await db.deleteFrom('push_subscriptions').where('id', '=', sub.id).execute();
      if (outcome === 'failed') app.log.warn({ status, subscription: sub.id }, 'push not accepted by the push service');
      return outcome;
    }

    const coalescer = new Coalescer<MessageItem>(
      PUSH.coalesceMs,
      (_key, item, count) => {
        const payload = { ...item.payload, count, preview: item.hiddenText ? null : item.payload.preview };
        track(
          deliver(item.sub, payload, { ttlSec: PUSH.messageTtlSec, urgency: 'normal' }).catch((err) =>
            app.log.error({ err }, 'push failed'),
          ),
        );
      },
      app.clock,
    );

    async function pushMessage(message: Message, recipients: readonly string[], reminder = false): Promise<void> {
      // A reminder is the user's own message to themselves; any other is never pushed to its sender.
      const offline = recipients.filter((id) => (reminder || id !== message.senderId) && !realtime.isOnline(id));
      const subs = await subscriptionsOf(offline);
      if (subs.length === 0) return;
      const [sender, conversation] = await Promise.all([
        db
          .selectFrom('users')
          .select(['display_name', 'avatar_url'])
          .where('id', '=', message.senderId)
          .executeTakeFirst(),
        db
          .selectFrom('conversations')
          .select(['title', 'is_group'])
          .where('id', '=', message.conversationId)
          .executeTakeFirst(),
      ]);
      const name = sender?.display_name ?? 'Беседа';
      const group = conversation?.is_group === 1;
      const payload: MessageItem['payload'] = {
        kind: 'message',
        conversationId: message.conversationId,
        title: reminder ? 'Напоминание' : group ? fromInGroup(name, conversation?.title ?? '') : name,
        preview: messagePreview(message.type, message.content),
        count: 1,
        icon: group ? null : iconOf(sender?.avatar_url),
      };
      for (const sub of subs)
        coalescer.offer(`${sub.id}:${message.conversationId}`, { sub, payload, hiddenText: sub.show_text !== 1 });
    }

    async function pushCall(
      conversationId: string,
      callees: readonly string[],
      from: { id: string; name: string },
      video: boolean,
    ) {
      const subs = await subscriptionsOf(callees);
      const caller = await db.selectFrom('users').select('avatar_url').where('id', '=', from.id).executeTakeFirst();
      const payload: NotificationPayload = {
        kind: 'call',
        conversationId,
        title: from.name,
        video,
        icon: iconOf(caller?.avatar_url),
      };
      await Promise.all(subs.map((sub) => deliver(sub, payload, { ttlSec: PUSH.callTtlSec, urgency: 'high' })));
    }

    async function pushGroupCall(
      conversationId: string,
      members: readonly string[],
      from: { id: string; name: string },
      group: string,
      video: boolean,
    ) {
      const subs = await subscriptionsOf(members.filter((id) => !realtime.isOnline(id)));
      const payload: NotificationPayload = {
        kind: 'groupCall',
        conversationId,
        title: fromInGroup(from.name, group),
        video,
        icon: null,
      };
      await Promise.all(subs.map((sub) => deliver(sub, payload, { ttlSec: PUSH.groupCallTtlSec, urgency: 'high' })));
    }

    const notifier: PushNotifier = {
      // After the sender's answer has gone (the next turn of the event loop): nothing of it is needed to
      // acknowledge the message, which is committed by then. Tracked at once, so settled() waits for it.
      message: (message, recipients) =>
        track(
          Promise.all([recipients, nextTurn()])
            .then(([to]) => pushMessage(message, to))
            .catch((err) => app.log.error({ err }, 'push failed')),
        ),
      reminder: (message) =>
        track(pushMessage(message, [message.senderId], true).catch((err) => app.log.error({ err }, 'push failed'))),
      call: (conversationId, callees, from, video) =>
        track(
          pushCall(conversationId, callees, from, video).catch((err) => app.log.error({ err }, 'call push failed')),
        ),
      groupCallStarted: (conversationId, members, from, group, video) =>
        track(
          pushGroupCall(conversationId, members, from, group, video).catch((err) =>
            app.log.error({ err }, 'group call push failed'),
          ),
        ),
      anySubscribed: async (userIds) =>
        userIds.length > 0 &&
        (await db
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', 'in', userIds)
          .limit(1)
          .executeTakeFirst()) !== undefined,
      signedOut: async (sessionId) => {
        await db.deleteFrom('push_subscriptions').where('session_id', '=', sessionId).execute();
      },
      settled: async () => {
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      },
    };
    app.decorate('push', notifier);
    app.addHook('onClose', async () => {
      coalescer.close();
      await notifier.settled();
    });

    app.register(async function pushRoutes(api) {
      contractRoute(api, 'pushKey', async () => ({ publicKey: vapid.publicKey }));

      contractRoute(api, 'pushSubscribe', async ({ userId, body, req }) => {
        const refusal = endpointRefusal(body.endpoint, config.pushAllowLoopback);
        if (refusal) throw badRequest(refusal);
        const claims = await app.accessTokens.claims(bearerToken(req));
        if (!claims) throw unauthorized();
        const row = {
          user_id: userId,
          session_id: claims.sessionId,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          show_text: body.showText ? 1 : 0,
        };
        await db.transaction().execute(async (trx) => {
          const existing = await trx
            .selectFrom('push_subscriptions')
            .select(['id', 'user_id'])
            .where('endpoint', '=', body.endpoint)
            .executeTakeFirst();
          // An endpoint is its first subscriber's until they unsubscribe (or sign out): whoever merely knows it
          // cannot take someone's pushes away.
          if (existing && existing.user_id !== userId) throw conflict(PUSH_ENDPOINT_TAKEN);
          if (existing) {
            await trx.updateTable('push_subscriptions').set(row).where('id', '=', existing.id).execute();
            return;
          }
          await trx
            .insertInto('push_subscriptions')
            .values({
              id: randomUUID(),
              endpoint: body.endpoint,
              created_at: new Date(app.clock.now()).toISOString(),
              ...row,
            })
            .execute();
          // At most PUSH.subscriptionsPerUser per user: the oldest go.
          const stale = await trx
            .selectFrom('push_subscriptions')
            .select('id')
            .where('user_id', '=', userId)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .offset(PUSH.subscriptionsPerUser)
            .limit(1_000)
            .execute();
          if (stale.length)
            await trx
              .deleteFrom('push_subscriptions')
              .where(
                'id',
                'in',
                stale.map((s) => s.id),
              )
              .execute();
        });
        return { ok: true as const };
      });

      contractRoute(api, 'pushUnsubscribe', async ({ userId, body }) => {
        await db
          .deleteFrom('push_subscriptions')
          .where('endpoint', '=', body.endpoint)
          .where('user_id', '=', userId)
          .execute();
        return { ok: true as const };
      });
    });
  },
  {
    name: 'push',
    decorators: {
      fastify: ['config', 'clock', 'db', 'metrics', 'secrets', 'realtime', 'accessTokens', 'authenticate'],
    },
    dependencies: ['base', 'authentication', 'realtime', 'metrics'],
  },
);
