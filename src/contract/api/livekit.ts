// Call tokens and the media server's address (server/livekit/).
// Each route's method and path are in ./livekit.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { NUL_MESSAGE, noNul } from '../entities';
import { LIMITS } from '../limits';
import { livekitRoutes } from './livekit.routes';
import { withSchemas } from './with-schemas';

export const LivekitTokenBody = z.strictObject({
  room: z.string().trim().min(1, 'Укажите комнату').max(LIMITS.roomNameMax),
  participantName: z.string().max(LIMITS.displayNameMax).refine(noNul, NUL_MESSAGE).optional(),
  participantMetadata: z.record(z.string(), z.unknown()).optional(),
});
export const LivekitTokenResponse = z.object({ token: z.string(), url: z.string() });
/** GET /api/livekit/url: the media server address the app hands out (the /calls page shows it). */
export const LivekitUrlResponse = z.object({ url: z.string() });

/** The routes of ./livekit.routes with their schemas. */
export const livekitApi = withSchemas(livekitRoutes, {
  livekitToken: { body: LivekitTokenBody, response: LivekitTokenResponse },
  livekitUrl: { response: LivekitUrlResponse },
});
