// How long a browser may keep each file of the built client. Files under assets/ carry a hash of their content in
// their names (Vite's default `assets/[name]-[hash].js`): a new build gives them new names, so they never change
// and are cached for a year without revalidation. index.html (which names the current hashes), a service worker
// and the unhashed files copied from public/ are revalidated on every use (a 304 when unchanged).
const COMPRESSED_COPY = /\.(br|gz)$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** `relativePath`: the served file relative to the client directory (its .br/.gz copy included). */
export function cacheControlFor(relativePath: string): string {
  const file = relativePath.split('\\').join('/').replace(COMPRESSED_COPY, '');
  return file.startsWith('assets/') ? IMMUTABLE : REVALIDATE;
}

export const isAssetUrl = (url: string) => url === '/assets' || url.startsWith('/assets/');
