// A JSON answer kept in memory (the conversation list, list-cache.ts) also kept compressed with Brotli, for the
// clients whose Accept-Encoding takes it (docs/behaviour.md §10.29 The conversation list's answer): made once per
// kept answer, then every request of an unchanged list writes about a tenth of the bytes. Quality 1 costs less CPU
// than gzip's fastest level and is smaller (a 53 KB list: 4.9 KB in about 85 µs, gzip -1 5.9 KB in about 120 µs),
// so gzip is not offered: a browser asks for `br` over HTTPS and on localhost, and anything else gets the answer as
// it was.
import { brotliCompressSync, constants } from 'node:zlib';

/** Whether an Accept-Encoding header accepts `br` (named with a q above 0, or `*` when `br` is not named). */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'br') return accepted;
    if (name === '*') star = accepted;
  }
  return star;
}

/** Each kept answer's compressed copy, for as long as the answer itself is kept (a dropped one takes it along). */
const copies = new WeakMap<Buffer, Buffer>();

/** `json` compressed, made on the first call for this very Buffer and kept beside it. */
export function brotliOf(json: Buffer): Buffer {
  let br = copies.get(json);
  if (!br) {
    br = brotliCompressSync(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    });
    copies.set(json, br);
  }
  return br;
}
