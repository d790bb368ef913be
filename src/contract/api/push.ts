// Web Push (server/push/, the client's notifications): the key and the browser's subscription.
// Each route's method and path are in ./push.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { PUSH } from '../notification';
import { pushRoutes } from './push.routes';
import { Ok, withSchemas } from './with-schemas';

// Web Push (server/push/). The keys are base64url as PushSubscription.toJSON() gives them: p256dh an uncompressed
// P-256 point (65 bytes), auth 16 bytes. Whether the endpoint may be used is the server's check (https only).
const Base64Url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'Ключ подписки должен быть в base64url');
export const PushEndpoint = z.string().min(1).max(PUSH.endpointMax, 'Слишком длинный адрес подписки');
export const PushSubscribeBody = z.strictObject({
  endpoint: PushEndpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64Url(80, 100), auth: Base64Url(16, 32) }),
  /** Whether notifications may show the message text («Показывать текст сообщений»). */
  showText: z.boolean(),
});
export const PushUnsubscribeBody = z.strictObject({ endpoint: PushEndpoint });
export const PushKeyResponse = z.object({ publicKey: z.string() });

/** The routes of ./push.routes with their schemas. */
export const pushApi = withSchemas(pushRoutes, {
  pushKey: { response: PushKeyResponse },
  pushSubscribe: { body: PushSubscribeBody, response: Ok },
  pushUnsubscribe: { body: PushUnsubscribeBody, response: Ok },
});
