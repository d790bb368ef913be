// Message search with secret chats (docs/secret-chats.md, "Search"): the server's index skips ENCRYPTED messages,
// so their matches come from this device's local index (crypto/search-index.ts, in the crypto worker) and are
// merged into the server's pages by time. Loaded only when the user has a secret chat (src/machines/app/wiring/search.ts).
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

/** The time of each page's last result, by message id: the next page's `before` names it. */
const cursors = new Map<string, string>();
const CURSORS_KEPT = 200;

function remember(result: SearchResult): void {
  if (cursors.size >= CURSORS_KEPT) cursors.delete(cursors.keys().next().value as string);
  cursors.set(result.message.id, result.message.createdAt);
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
 * only the local index is asked. While the server has more, local hits older than its page wait for the next one
 * (the next page's `before` is the last result shown, local or not: every ENCRYPTED message is the server's too).
 */
export async function searchWithSecretChats(input: SecretSearchInput): Promise<SearchPage> {
  const { request, secretIds } = input;
  const limit = input.pageSize ?? LIMITS.searchPageDefault;
  const inSecret = request.conversationId !== undefined && secretIds.has(request.conversationId);
  const server: SearchPage = inSecret ? { results: [], nextBefore: null } : await input.server(request);
  if (request.conversationId !== undefined && !inSecret) return server;
  const beforeAt = request.before ? cursors.get(request.before) : undefined;
  // A cursor this page did not give (cannot happen but after a reload of this module): the server's page alone.
  if (request.before && !beforeAt) return server;

  const asked = input.crypto.searchLocal(input.userId, {
    q: request.q,
    ...(request.conversationId ? { conversationId: request.conversationId } : {}),
    ...(request.before && beforeAt ? { before: { createdAt: beforeAt, messageId: request.before } } : {}),
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
  const last = page[page.length - 1];
  if (!last || !more) return { results: page, nextBefore: null };
  remember(last);
  return { results: page, nextBefore: last.message.id };
}
