// Message search with secret chats (docs/secret-chats.md, "Search"): the server's index skips ENCRYPTED messages,
// so their matches come from this device's local index (crypto/search-index.ts, in the crypto worker) and are
// merged into the server's pages by time. Loaded only when the user has a secret chat (src/services/search/search.effects.ts).
import type { Message, SearchResult } from '../../contract/entities';
import { LIMITS } from '../../contract/limits';
import type { SecretCrypto } from './crypto/secret-crypto';
import type { LocalHit } from './crypto/search-index';

export interface SearchPageRequest {
  q: string;
  conversationId?: string;
  before?: string;
}
export interface SearchPage {
  results: SearchResult[];
  nextBefore: string | null;
}

export interface SecretSearchInput {
  userId: string;
  request: SearchPageRequest;
  /** The user's secret chats now (a chat left since stays in the index but is not shown). */
  secretIds: ReadonlySet<string>;
  /** GET /api/search for this request. */
  server(request: SearchPageRequest): Promise<SearchPage>;
  crypto: SecretCrypto;
  pageSize?: number;
}

/**
 * Where the next page starts, on each side: the server's cursor is the id of the last server result shown (the
 * server pages from its own messages only), the local one the time and id of the last local result shown (only the
 * worker's index ever reads it). The page's `nextBefore` is a name for this pair, never a secret message's id: a
 * local id would tell the server which secret message matched.
 */
interface Cursor {
  server: string | null;
  serverDone: boolean;
  local: { createdAt: string; messageId: string } | null;
}
/** The cursors handed out by this page's module, by their names. */
const cursors = new Map<string, Cursor>();
const CURSORS_KEPT = 200;
/** Every name of a cursor begins so (the search wiring routes such a page here even with no secret chat left). */
export const LOCAL_CURSOR_PREFIX = 'secret-page-';
let named = 0;

function remember(cursor: Cursor): string {
  if (cursors.size >= CURSORS_KEPT) cursors.delete(cursors.keys().next().value as string);
  const name = `${LOCAL_CURSOR_PREFIX}${++named}`;
  cursors.set(name, cursor);
  return name;
}

/** A local hit in the shape of the server's results (the ciphertext is not kept: the view shows the snippet). */
export function localResult(hit: LocalHit): SearchResult {
  const { doc } = hit;
  const message: Message = {
    id: doc.messageId,
    conversationId: doc.conversationId,
    senderId: doc.senderId,
    type: 'ENCRYPTED',
    content: '',
    createdAt: doc.createdAt,
    deletedAt: null,
    editedAt: doc.editedAt,
    clientMessageId: null,
    replyTo: null,
    attachments: [],
    receipts: [],
    reactions: [],
  };
  return { conversationId: doc.conversationId, message, snippet: hit.snippet, highlights: hit.highlights };
}

const newerFirst = (a: SearchResult, b: SearchResult) => b.message.createdAt.localeCompare(a.message.createdAt);

/**
 * One page of results: the server's and this device's secret chats' together, newest first. Within a secret chat
 * only the local index is asked. While the server has more, local hits older than its page wait for the next one.
 * Each side pages from its own cursor (above), so no request to the server names a local result.
 */
export async function searchWithSecretChats(input: SecretSearchInput): Promise<SearchPage> {
  const { request, secretIds } = input;
  const limit = input.pageSize ?? LIMITS.searchPageDefault;
  const inSecret = request.conversationId !== undefined && secretIds.has(request.conversationId);
  const from: Cursor | undefined = request.before ? cursors.get(request.before) : undefined;
  // A cursor this module did not give (after a reload of the page): no next page, and nothing sent to the server.
  if (request.before && !from) return { results: [], nextBefore: null };
  const serverRequest: SearchPageRequest = {
    q: request.q,
    ...(request.conversationId ? { conversationId: request.conversationId } : {}),
    ...(from?.server ? { before: from.server } : {}),
  };
  const serverDone = inSecret || (from?.serverDone ?? false);
  const server: SearchPage = serverDone ? { results: [], nextBefore: null } : await input.server(serverRequest);
  if (request.conversationId !== undefined && !inSecret) return server;

  const asked = input.crypto.searchLocal(input.userId, {
    q: request.q,
    ...(request.conversationId ? { conversationId: request.conversationId } : {}),
    ...(from?.local ? { before: from.local } : {}),
    limit,
  });
  // Within a secret chat its failure is the search's; across all chats the server's results still show.
  const local = inSecret ? await asked : await asked.catch(() => ({ hits: [], more: false }));
  let mine = local.hits.filter((h) => secretIds.has(h.doc.conversationId)).map(localResult);
  let more = local.more;
  const oldest = server.results[server.results.length - 1]?.message.createdAt;
  if (server.nextBefore !== null && oldest !== undefined) {
    const waiting = mine.filter((r) => r.message.createdAt < oldest);
    if (waiting.length > 0) more = true;
    mine = mine.filter((r) => r.message.createdAt >= oldest);
  }
  const merged = [...server.results, ...mine].sort(newerFirst);
  const page = merged.slice(0, limit);
  more ||= merged.length > limit || server.nextBefore !== null;
  if (page.length === 0 || !more) return { results: page, nextBefore: null };
  const shown = new Set(page);
  const lastServer = server.results.filter((r) => shown.has(r)).at(-1);
  const lastLocal = mine.filter((r) => shown.has(r)).at(-1);
  const allServerShown = server.results.every((r) => shown.has(r));
  return {
    results: page,
    nextBefore: remember({
      server: lastServer?.message.id ?? from?.server ?? null,
      serverDone: serverDone || (server.nextBefore === null && allServerShown),
      local: lastLocal
        ? { createdAt: lastLocal.message.createdAt, messageId: lastLocal.message.id }
        : (from?.local ?? null),
    }),
  };
}
