// Secret chats' routes (docs/secret-chats.md): the server as MLS's delivery service. Devices and key packages
// (devices.ts), groups and their ordered log (secret-groups.ts), ENCRYPTED messages (secret-send.ts). A device is the
// sign-in the access token names; when a sign-in ends (sign-ins.ts) its device is revoked and the members of its
// secret chats hear that it is to be removed.
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '../../src/contract/limits';
import { bearerToken, contractRoute } from '../http/contract-route';
import { HttpError, unauthorized } from '../http/errors';
import { createDevices } from './devices';
import { createIdentities } from './identity';
import { createSecretGroups } from './secret-groups';
import { createSecretSender } from './secret-send';

/** Bodies of key packages (20 of up to 8 KiB) and of a commit with its welcome (up to 256 KiB each), with room. */
const KEY_PACKAGES_BODY = LIMITS.keyPackagesPerUpload * LIMITS.keyPackageMaxChars + 16 * 1024;
const MLS_BODY = 2 * LIMITS.mlsMessageMaxChars + 16 * 1024;

export const secretRoutes = fp(
  async (app) => {
    const { accessTokens, blocks, clock, config, db, lists, metrics, push, realtime, signIns } = app;
    const now = () => new Date(clock.now()).toISOString();
    const devices = createDevices(db, now);
    const groups = createSecretGroups({ db, devices, lists, realtime, blocks, now });
    const send = createSecretSender({ db, lists, realtime, push, blocks, devices, groups });
    const identities = createIdentities(db, realtime, now);

    /** The sign-in making the request (its access token's `sid`): the device it is. */
    const sessionOf = async (req: FastifyRequest) => {
      const claims = await accessTokens.claims(bearerToken(req));
      if (!claims) throw unauthorized();
      return claims.sessionId;
    };

    // Each claim takes packages another device made for one use: a per-claimer budget keeps a script from draining
    // everyone's stock (its friends' devices would then fall back to their last-resort package). This plugin's own
    // limiter; counted before validation, so malformed claims count too.
    await app.register(rateLimit, { global: false });
    const claims = app.createRateLimit({
      max: config.secretClaimsPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => `secret-claim:${req.userId ?? req.ip}`,
    });
    const claimLimit = async (req: FastifyRequest, reply: FastifyReply) => {
      const r = await claims(req);
      if (r.isAllowed || !r.isExceeded) return;
      reply.header('retry-after', String(r.ttlInSeconds));
      throw new HttpError(429, `Слишком много запросов ключей. Повторите через ${r.ttlInSeconds} с.`);
    };

    signIns.onEnded(async (sessionId) => {
      try {
        const device = await devices.revokeSession(sessionId);
        if (device) await groups.deviceRevoked(device.id);
      } catch (err) {
        app.log.error({ err }, 'secret device not revoked');
      }
    });

    contractRoute(
      app,
      'secretRegisterDevice',
      async ({ userId, body, req }) => {
        // Only a device its person's identity key signed (docs/secret-chats.md "Identity keys").
        await identities.checkDevice(userId, body.signatureKey, body.identitySignature);
        const { device, keyPackagesLeft, created } = await devices.register(
          userId,
          await sessionOf(req),
          { signatureKey: body.signatureKey, identitySignature: body.identitySignature },
          body.keyPackages,
          body.lastResort,
        );
        if (created) await groups.deviceAdded(userId, !(await devices.hasOtherDevice(userId, device.id)));
        return { device, keyPackagesLeft };
      },
      { bodyLimit: KEY_PACKAGES_BODY },
    );
    contractRoute(
      app,
      'secretKeyPackages',
      async ({ userId, body }) => {
        const answer = await devices.addKeyPackages(userId, body.deviceId, body.keyPackages, body.lastResort);
        await groups.keyPackagesAdded(userId, body.deviceId);
        return answer;
      },
      {
        bodyLimit: KEY_PACKAGES_BODY,
      },
    );
    contractRoute(
      app,
      'secretClaim',
      async ({ userId, body, req }) => {
        await groups.mayClaim(userId, body.userIds, body.conversationId);
        const session = await sessionOf(req);
        const mine = await db
          .selectFrom('secret_devices')
          .select('id')
          .where('session_id', '=', session)
          .executeTakeFirst();
        return devices.claim(body.userIds, mine?.id ?? null, body.deviceIds);
      },
      { preHandler: claimLimit },
    );
    contractRoute(app, 'secretCreate', ({ userId, body }) => groups.create(userId, body), { bodyLimit: MLS_BODY });
    contractRoute(app, 'secretCommit', ({ userId, body }) => groups.commit(userId, body), { bodyLimit: MLS_BODY });
    contractRoute(app, 'secretLog', ({ userId, params, query }) =>
      groups.log(userId, params.id, query.deviceId, query.after),
    );
    contractRoute(app, 'secretState', ({ userId, query }) => groups.state(userId, query.deviceId));
    contractRoute(app, 'secretIdentities', async ({ userId, query }) => {
      // Whose packages one may claim, one may know the identity key of.
      await groups.mayClaim(userId, query.userIds, query.conversationId);
      return { identities: await identities.list(query.userIds) };
    });
    contractRoute(app, 'secretSetIdentity', async ({ userId, body }) => ({
      identity: await identities.set(userId, body.publicKey, body.reset === true),
    }));
    contractRoute(app, 'secretApprovalRequest', async ({ userId, body, req }) => ({
      approval: await identities.request(userId, await sessionOf(req), body.deviceKey, body.exchangeKey),
    }));
    contractRoute(app, 'secretApprovals', async ({ userId, req }) => ({
      approvals: await identities.open(userId, await sessionOf(req)),
    }));
    contractRoute(app, 'secretApproval', async ({ userId, params, req }) => ({
      approval: await identities.get(userId, await sessionOf(req), params.id),
    }));
    contractRoute(app, 'secretApprovalDecline', async ({ userId, params, req }) => ({
      approval: await identities.decline(userId, await sessionOf(req), params.id),
    }));
    contractRoute(app, 'secretApprovalAnswer', async ({ userId, params, body, req }) => ({
      approval: await identities.answer(userId, await sessionOf(req), params.id, body.signature, body.sealed),
    }));
    contractRoute(app, 'secretRejoin', ({ userId, body }) => groups.rejoin(userId, body.conversationId, body.deviceId));
    contractRoute(app, 'secretSend', async ({ userId, body }) => {
      const answer = await send(userId, body);
      metrics.messagesSent.inc();
      return answer;
    });
  },
  {
    name: 'secret-routes',
    encapsulate: true,
    decorators: {
      fastify: [
        'accessTokens',
        'blocks',
        'clock',
        'config',
        'db',
        'lists',
        'metrics',
        'push',
        'realtime',
        'signIns',
        'authenticate',
      ],
    },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'metrics', 'push', 'blocks', 'sign-ins'],
  },
);
