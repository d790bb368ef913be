// The imports' REST calls (docs/behaviour.md §10.39): the export goes up as the raw body (XMLHttpRequest, for its
// progress), the rest as JSON, all with the bearer token and one refresh after a 401 (composer/upload.ts). Failures
// are RequestFailures carrying the server's Russian message.
import { RequestFailure } from '../../contract/failure';
import {
  IMPORT_PATHS,
  type ImportJob,
  type ImportStartBody,
  type SecretImportBatch,
  type SecretImportBatchResult,
} from '../../contract/history-import/jobs';
import { type AuthOptions, authorized, type UploadOptions } from '../composer/upload';

export interface ImportsApi {
  /** POST /api/imports?conversationId= (none: into a new group). */
  upload(file: Blob, conversationId: string | null, options?: UploadOptions): Promise<ImportJob>;
  /** GET /api/imports: the importer's recent imports, newest first. */
  list(): Promise<ImportJob[]>;
  get(id: string): Promise<ImportJob>;
  /** A whole-account export: which chat (the server reads its authors). */
  chooseChat(id: string, chatId: string): Promise<ImportJob>;
  start(id: string, body: ImportStartBody): Promise<ImportJob>;
  cancel(id: string): Promise<ImportJob>;
  secretBatch(batch: SecretImportBatch): Promise<SecretImportBatchResult>;
}

/** An answer that is an import (bare, or as `{ job }`), else a failure with no message. */
function jobOf(body: unknown): ImportJob {
  const b = body as { job?: unknown; id?: unknown; status?: unknown } | null;
  const job = (b && typeof b === 'object' && 'job' in b ? b.job : b) as { id?: unknown; status?: unknown } | null;
  if (!job || typeof job.id !== 'string' || typeof job.status !== 'string') throw new RequestFailure(null, null);
  return job as ImportJob;
}

export function createImportsApi(options: AuthOptions): ImportsApi {
  const json = (method: string, path: string, body?: unknown) =>
    authorized(
      options,
      {
        method,
        path,
        body: body === undefined ? null : JSON.stringify(body),
        ...(body === undefined ? {} : { contentType: 'application/json' }),
      },
      {},
    );
  return {
    async upload(file, conversationId, o = {}) {
      const query = conversationId ? `?conversationId=${encodeURIComponent(conversationId)}` : '';
      const out = {
        method: 'POST',
        path: `${IMPORT_PATHS.imports}${query}`,
        body: file,
        contentType: 'application/zip',
      };
      return jobOf(await authorized(options, out, o));
    },
    async list() {
      const body = (await json('GET', IMPORT_PATHS.imports)) as { jobs?: unknown } | unknown[] | null;
      const jobs = Array.isArray(body) ? body : Array.isArray(body?.jobs) ? body.jobs : [];
      return jobs.map(jobOf);
    },
    async get(id) {
      return jobOf(await json('GET', IMPORT_PATHS.job(id)));
    },
    async chooseChat(id, chatId) {
      return jobOf(await json('POST', IMPORT_PATHS.chat(id), { chatId }));
    },
    async start(id, body) {
      return jobOf(await json('POST', IMPORT_PATHS.start(id), body));
    },
    async cancel(id) {
      return jobOf(await json('POST', IMPORT_PATHS.cancel(id), {}));
    },
    async secretBatch(batch) {
      const body = (await json('POST', IMPORT_PATHS.secretBatch, batch)) as SecretImportBatchResult | null;
      if (!body || typeof body.stored !== 'number') throw new RequestFailure(null, null);
      return body;
    },
  };
}
