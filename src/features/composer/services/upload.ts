// POST /api/upload with upload progress (fetch cannot report it, XMLHttpRequest can). The answer must be JSON
// with a url; anything else, a non-2xx status or a network error fails with a RequestFailure carrying the status
// and the server's message when there is one (docs/behaviour.md §5, §8).
import type { UploadResult } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { uploadEndpoint } from '../../../contract/routes';

export type { UploadResult };

export interface UploadOptions {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export type Uploader = (file: Blob & { name?: string }, options?: UploadOptions) => Promise<UploadResult>;

export function createUploader(options: {
  baseURL: string;
  accessToken: () => string | null;
  refresh: () => Promise<string | null>;
}): Uploader {
  const once = (file: Blob & { name?: string }, o: UploadOptions, token: string | null) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(uploadEndpoint.method, `${options.baseURL}${uploadEndpoint.path}`);
      xhr.withCredentials = true;
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) o.onProgress?.(Math.min(100, Math.round((100 * e.loaded) / e.total)));
      };
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = null;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new RequestFailure(null, null));
      xhr.onabort = () => reject(new RequestFailure(null, null));
      o.signal?.addEventListener('abort', () => xhr.abort());
      const form = new FormData();
      form.append(uploadEndpoint.field, file, file.name ?? 'file');
      xhr.send(form);
    });

  return async (file, o = {}) => {
    let answer = await once(file, o, options.accessToken());
    // Like every other request: one refresh and one repeat after a 401.
    if (answer.status === 401) {
      const fresh = await options.refresh();
      if (!fresh) throw new RequestFailure(401, null);
      answer = await once(file, o, fresh);
    }
    const body = answer.body as (Partial<UploadResult> & { message?: unknown }) | null;
    if (answer.status < 200 || answer.status >= 300 || !body || typeof body.url !== 'string') {
      const message = typeof body?.message === 'string' && body.message ? body.message : null;
      throw new RequestFailure(answer.status >= 200 && answer.status < 300 ? null : answer.status, message);
    }
    o.onProgress?.(100);
    return body as UploadResult;
  };
}
