// Liveness and readiness (server/app.ts, server/observability/).
// Each route's method and path are in ./health.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { healthRoutes } from './health.routes';
import { withSchemas } from './with-schemas';

export const HealthResponse = z.object({ ok: z.literal(true) });
/**
 * Readiness (503 when a check fails): each check is 'ok' or why it failed, in Russian; `redis` only when REDIS_URL
 * is set.
 */
export const HealthReadyResponse = z.object({
  ok: z.boolean(),
  checks: z.object({ database: z.string(), storage: z.string(), redis: z.string().optional() }),
  /** The release (package.json `version`) and the schema (the latest migration's number, «037»). */
  version: z.object({ release: z.string(), schema: z.string() }),
});

/** The routes of ./health.routes with their schemas. */
export const healthApi = withSchemas(healthRoutes, {
  health: { response: HealthResponse },
  healthReady: { response: HealthReadyResponse },
});
