// Uploads (server/uploads/): the one multipart route, outside the JSON table.
import { z } from 'zod';
import { Attachment } from '../entities';
import { uploadEndpoint } from './uploads.routes';

export const UploadResponse = z.object({ url: z.string(), attachment: Attachment });
export type UploadResult = z.output<typeof UploadResponse>;
/**
 * POST /api/upload (multipart, see ./uploads.routes): answer 201 UploadResponse; 413 past the size limit. `url` is
 * same-origin (`/uploads/<32 hex>`) and goes into SendBody.attachments as is.
 */
export const uploadRoute = { ...uploadEndpoint, response: UploadResponse } as const;
