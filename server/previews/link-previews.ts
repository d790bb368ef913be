// Link previews (docs/behaviour.md §10.30 Link previews): the first http(s) link of a message gets a card. The
// server fetches each URL once (guarded-fetch.ts), parses only HTML it fetched itself (open-graph-scraper with
// `html`), cuts the texts, re-encodes the picture and keeps the result 24 h; the members hear `message:preview`
// when the card arrives after the message.
import { Readable } from 'node:stream';
import { LinkifyIt } from 'linkify-it';
import ogs from 'open-graph-scraper';
import sharp from 'sharp';
import type { LinkPreview } from '../../src/contract/entities';
import type { LinkPreviewSettings } from '../config';
import type { Database } from '../db/database';
import type { LinkPreviewsTable } from '../db/schema';
import { newStorageKey } from '../uploads/file-names';
import type { UploadStorage } from '../uploads/storage';
import { type FetchPolicy, FetchRefused, guardedGet } from './guarded-fetch';

/** A cached card is used for 24 h; the next message with the link after that fetches it again. */
export const PREVIEW_CACHE_MS = 24 * 3600 * 1000;
export const PREVIEW_MAX_BYTES = 1024 * 1024;
export const PREVIEW_MAX_REDIRECTS = 3;
const URL_MAX = 2048;
const SITE_MAX = 80;
const TITLE_MAX = 200;
const DESCRIPTION_MAX = 300;
/** The picture is shown at most 400 px wide in a bubble: twice that for sharp screens. */
const IMAGE_MAX_SIDE = 800;
const IMAGE_MAX_PIXELS = 40_000_000;

let linkify: LinkifyIt | null = null;

const HTTP_SCHEME = /https?:\/\//i;

/** The first link written with http:// or https:// (a bare domain gets no card), or null. */
export function firstLink(text: string): string | null {
  // Only http(s) links count: a text without one (most) is not parsed (this runs on every send).
  if (!HTTP_SCHEME.test(text)) return null;
  linkify ??= new LinkifyIt().set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  for (const m of linkify.match(text) ?? []) {
    if (!/^https?:\/\//i.test(m.raw)) continue;
    try {
      const url = new URL(m.url);
      if (url.hostname && url.href.length <= URL_MAX) {
        url.hash = '';
        return url.href;
      }
    } catch {
      /* not a URL after all: the next one */
    }
  }
  return null;
}

/** One line of plain text, without control characters, at most `max` characters (cut on a word with «…»). */
export function cleanText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const flat = value
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!flat) return null;
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The charset a Content-Type names, if TextDecoder knows it; else UTF-8. */
function decode(body: Buffer, contentType: string): string {
  const charset = /charset="?([\w-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

type Card = Omit<LinkPreviewsTable, 'url' | 'fetched_at'>;
const FAILED: Card = {
  status: 'failed',
  site_name: null,
  title: null,
  description: null,
  image_key: null,
  image_width: null,
  image_height: null,
};

export interface PreviewDeps {
  db: Database;
  storage: UploadStorage;
  settings: LinkPreviewSettings;
  now: () => number;
  /** What the server would log: one line per refused or failed fetch. */
  log: (reason: string, url: string) => void;
}

export function createLinkPreviews({ db, storage, settings, now, log }: PreviewDeps) {
  const policy: FetchPolicy = {
    allowHosts: settings.allowHosts,
    ports: settings.ports,
    maxBytes: PREVIEW_MAX_BYTES,
    maxRedirects: PREVIEW_MAX_REDIRECTS,
    resolve: settings.resolve,
  };
  /** Fetches running now, by URL: two messages with one link share a fetch. */
  const running = new Map<string, Promise<void>>();
  /** Aborts every fetch when the server closes. */
  const closing = new AbortController();

  /** The picture: fetched through the same guard, decoded and encoded again (WebP, no metadata), or null. */
  async function picture(raw: string, base: URL, signal: AbortSignal) {
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      return null;
    }
    try {
      const got = await guardedGet(url, policy, (t) => t.startsWith('image/'), 'image/*', signal);
      if (got.cut) return null;
      const { data, info } = await sharp(got.body, { limitInputPixels: IMAGE_MAX_PIXELS })
        .rotate()
        .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      const key = newStorageKey();
      await storage.write(key, Readable.from([data]));
      return { key, width: info.width, height: info.height };
    } catch (err) {
      log(err instanceof FetchRefused ? err.message : 'image: not decodable', url.href);
      return null;
    }
  }

  async function build(url: string, signal: AbortSignal): Promise<Card> {
    const page = await guardedGet(
      url,
      policy,
      (t) => t.startsWith('text/html') || t.startsWith('application/xhtml+xml'),
      'text/html,application/xhtml+xml',
      signal,
    );
    const { result } = await ogs({ html: decode(page.body, page.contentType) });
    const title = cleanText(result.ogTitle ?? result.twitterTitle, TITLE_MAX);
    const description = cleanText(result.ogDescription ?? result.twitterDescription, DESCRIPTION_MAX);
    const siteName = cleanText(result.ogSiteName, SITE_MAX) ?? cleanText(page.url.hostname, SITE_MAX);
    const imageUrl = result.ogImage?.[0]?.url ?? result.twitterImage?.[0]?.url;
    if (!title && !description) return FAILED;
    const image = imageUrl ? await picture(imageUrl, page.url, signal) : null;
    return {
      status: 'ready',
      site_name: siteName,
      title,
      description,
      image_key: image?.key ?? null,
      image_width: image?.width ?? null,
      image_height: image?.height ?? null,
    };
  }

  async function fetchAndStore(url: string): Promise<void> {
    // One deadline for the whole card: every redirect, the page and the picture.
    const signal = AbortSignal.any([AbortSignal.timeout(settings.timeoutMs), closing.signal]);
    let card: Card;
    try {
      card = await build(url, signal);
    } catch (err) {
      log(err instanceof FetchRefused ? err.message : `parse: ${(err as Error).message}`, url);
      card = FAILED;
    }
    if (closing.signal.aborted) return;
    const row = { ...card, fetched_at: new Date(now()).toISOString() };
    await db
      .insertInto('link_previews')
      .values({ url, ...row })
      .onConflict((oc) => oc.column('url').doUpdateSet(row))
      .execute();
  }

  /** The card for `url` fresh in the cache, fetching it (once, however many ask) when it is not. */
  async function ensure(url: string): Promise<void> {
    const cached = await db.selectFrom('link_previews').select('fetched_at').where('url', '=', url).executeTakeFirst();
    if (cached && now() - Date.parse(cached.fetched_at) < PREVIEW_CACHE_MS) return;
    let job = running.get(url);
    if (!job) {
      job = fetchAndStore(url).finally(() => running.delete(url));
      running.set(url, job);
    }
    await job;
  }

  return { ensure, policy, close: () => closing.abort() };
}

export type LinkPreviews = ReturnType<typeof createLinkPreviews>;

/** A message's card as the contract has it: pending until the server has the page. */
export function toLinkPreview(
  url: string,
  row:
    | Pick<
        LinkPreviewsTable,
        'status' | 'site_name' | 'title' | 'description' | 'image_key' | 'image_width' | 'image_height'
      >
    | undefined,
): LinkPreview {
  if (!row) return { url, status: 'pending', siteName: null, title: null, description: null, image: null };
  return {
    url,
    status: row.status === 'ready' ? 'ready' : 'failed',
    siteName: row.site_name,
    title: row.title,
    description: row.description,
    image: row.image_key
      ? { url: `/uploads/previews/${row.image_key}`, width: Number(row.image_width), height: Number(row.image_height) }
      : null,
  };
}

/** The cards of a batch of messages, in one query. */
export async function previewsOf(db: Database, messageIds: string[]): Promise<Map<string, LinkPreview>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('message_previews as m')
    .leftJoin('link_previews as l', 'l.url', 'm.url')
    .select([
      'm.message_id',
      'm.url',
      'l.status',
      'l.site_name',
      'l.title',
      'l.description',
      'l.image_key',
      'l.image_width',
      'l.image_height',
    ])
    .where('m.message_id', 'in', messageIds)
    .execute();
  return new Map(
    rows.map((r) => [r.message_id, toLinkPreview(r.url, r.status ? { ...r, status: r.status } : undefined)]),
  );
}
