// «Экспорт данных» (server/export/, the account page's): the archive built in the background.
// Each route's method and path are in ./export.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id } from '../entities';
import { exportRoutes } from './export.routes';
import { withSchemas } from './with-schemas';

/**
 * «Экспорт данных» (docs/accounts.md): a ZIP built in the background. `progress` runs from 0 to 1; `downloadUrl` is
 * set once it is ready (a same-origin link with a signed token valid for a few minutes: fetch the status again for a
 * fresh one). Kept until `expiresAt` (24 hours after it was asked for), then gone.
 */
export const ExportStatus = z.object({
  id: z.string(),
  status: z.enum(['building', 'ready', 'failed']),
  progress: z.number().min(0).max(1),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The ZIP's size in bytes once ready. */
  size: z.number().nullable(),
  downloadUrl: z.string().nullable(),
});
export const ExportResponse = z.object({ export: ExportStatus });
export const LatestExportResponse = z.object({ export: ExportStatus.nullable() });
export const ExportParams = z.strictObject({ id: Id });

/** The routes of ./export.routes with their schemas. */
export const exportApi = withSchemas(exportRoutes, {
  startExport: { response: ExportResponse },
  latestExport: { response: LatestExportResponse },
  exportStatus: { params: ExportParams, response: ExportResponse },
});
