// Uploads (server/uploads/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./uploads.ts.
/**
 * POST /api/upload is multipart/form-data (one file in the field `file`, bearer token), so it is not in the
 * JSON route table. Its answer is `UploadResponse` (./uploads.ts, `uploadRoute`).
 */
export const uploadEndpoint = { method: 'POST', path: '/upload', field: 'file' } as const;
