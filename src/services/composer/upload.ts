// POST /api/upload with upload progress (fetch cannot report it, XMLHttpRequest can). The answer must be JSON
// with a url; anything else, a non-2xx status or a network error fails with a RequestFailure carrying the status
// and the server's message when there is one (docs/behaviour.md §5, §8). A secret chat's attachments go the same
// way as raw ciphertext (POST /api/secret/uploads) and come back with the bearer token (docs/secret-chats.md).
import type { UploadResult } from '../../contract/api';
import { RequestFailure } from '../../contract/failure';
import { secretUploadEndpoint, uploadEndpoint } from '../../contract/routes';
import type { SecretUploadResult } from '../../contract/secret';

export type { SecretUploadResult, UploadResult };

export interface UploadOptions {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export type Uploader = (file: Blob & { name?: string }, options?: UploadOptions) => Promise<UploadResult>;

export interface AuthOptions {
  baseURL: string;
  accessToken: () => string | null;
  refresh: () => Promise<string | null>;
}

/** What one request sends: a multipart form, raw bytes (a secret chat's ciphertext, an export) or JSON text. */
export type Outgoing = {
  method: string;
  path: string;
  body: FormData | Blob | string | null;
  responseType?: 'arraybuffer';
  /** For a Blob or a string body; a Blob is octet-stream otherwise. */
  contentType?: string;
};

function request(options: AuthOptions, out: Outgoing, o: UploadOptions, token: string | null) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(out.method, `${options.baseURL}${out.path}`);
    xhr.withCredentials = true;
    if (out.responseType) xhr.responseType = out.responseType;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (out.contentType) xhr.setRequestHeader('Content-Type', out.contentType);
    else if (out.body instanceof Blob) xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) o.onProgress?.(Math.min(100, Math.round((100 * e.loaded) / e.total)));
    };
    xhr.onload = () => {
      let body: unknown = null;
      if (out.responseType === 'arraybuffer' && xhr.status >= 200 && xhr.status < 300) body = xhr.response;
      else {
        try {
          const text =
            out.responseType === 'arraybuffer'
              ? new TextDecoder().decode(xhr.response as ArrayBuffer)
              : xhr.responseText;
          body = JSON.parse(text);
        } catch {
          body = null;
        }
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new RequestFailure(null, null));
    xhr.onabort = () => reject(new RequestFailure(null, null));
    o.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(out.body);
  });
}

/** Sends once, and like every other request once more after one refresh following a 401. */
export async function authorized(options: AuthOptions, out: Outgoing, o: UploadOptions) {
  let answer = await request(options, out, o, options.accessToken());
  if (answer.status === 401) {
    const fresh = await options.refresh();
    if (!fresh) throw new RequestFailure(401, null);
    answer = await request(options, out, o, fresh);
  }
  if (answer.status < 200 || answer.status >= 300) {
    const message = (answer.body as { message?: unknown } | null)?.message;
    throw new RequestFailure(answer.status, typeof message === 'string' && message ? message : null);
  }
  return answer.body;
}

/** A JSON answer with a url, else a RequestFailure (a 2xx without one has no status to report). */
function withUrl<T extends { url: string }>(body: unknown, o: UploadOptions): T {
  if (!body || typeof (body as { url?: unknown }).url !== 'string') throw new RequestFailure(null, null);
  o.onProgress?.(100);
  return body as T;
}

export function createUploader(options: AuthOptions): Uploader {
  return async (file, o = {}) => {
    const form = new FormData();
    form.append(uploadEndpoint.field, file, file.name ?? 'file');
    const body = await authorized(options, { method: uploadEndpoint.method, path: uploadEndpoint.path, body: form }, o);
    return withUrl<UploadResult>(body, o);
  };
}

/** A secret chat's encrypted attachments: the ciphertext up (with progress) and back (with the bearer token). */
export interface SecretFileTransfer {
  upload(ciphertext: Blob, conversationId: string, options?: UploadOptions): Promise<SecretUploadResult>;
  /** `path` below the API's base, `/secret/uploads/<key>`. */
  download(path: string, signal?: AbortSignal): Promise<ArrayBuffer>;
}

export function createSecretFileTransfer(options: AuthOptions): SecretFileTransfer {
  return {
    async upload(ciphertext, conversationId, o = {}) {
      const path = `${secretUploadEndpoint.path}?${secretUploadEndpoint.query}=${encodeURIComponent(conversationId)}`;
      const body = await authorized(options, { method: secretUploadEndpoint.method, path, body: ciphertext }, o);
      return withUrl<SecretUploadResult>(body, o);
    },
    async download(path, signal) {
      const out: Outgoing = { method: 'GET', path, body: null, responseType: 'arraybuffer' };
      const body = await authorized(options, out, { signal });
      if (!(body instanceof ArrayBuffer)) throw new RequestFailure(null, null);
      return body;
    },
  };
}
