// History import (server/imports/, the client's historyImport): the jobs and their steps; the schemas are in
// src/contract/imports.ts.
// Each route's method and path are in ./imports.routes.ts; its schemas are joined to it here, by the same name.
import {
  ImportChooseBody,
  ImportJobResponse,
  ImportJobsResponse,
  ImportParams,
  ImportStartBody,
  ImportUploadQuery,
  SecretImportBatchBody,
  SecretImportBatchResponse,
} from '../imports';
import { importsRoutes, importUploadEndpoint } from './imports.routes';
import { withSchemas } from './with-schemas';

/** POST /api/imports?conversationId= with the export as the body (src/contract/imports.ts). */
export const importUploadRoute = {
  ...importUploadEndpoint,
  query: ImportUploadQuery,
  response: ImportJobResponse,
} as const;

/** The routes of ./imports.routes with their schemas. */
export const importsApi = withSchemas(importsRoutes, {
  imports: { response: ImportJobsResponse },
  importJob: { params: ImportParams, response: ImportJobResponse },
  importChoose: { params: ImportParams, body: ImportChooseBody, response: ImportJobResponse },
  importStart: { params: ImportParams, body: ImportStartBody, response: ImportJobResponse },
  importCancel: { params: ImportParams, response: ImportJobResponse },
  importSecretBatch: { body: SecretImportBatchBody, response: SecretImportBatchResponse },
});
