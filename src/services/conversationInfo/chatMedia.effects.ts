// «Медиа», «Файлы», «Ссылки», «Голосовые» (docs/behaviour.md §10.46): a plain chat's page is one request
// (GET /api/conversations/:id/media); a secret chat's is built in this browser from the messages it decrypted
// (./secret-media.ts, loaded only for one), since the server holds only their ciphertext.
import { fromPromise } from 'xstate';
import type { ChatMediaItem } from '../../contract/api/messages';
import { CHAT_MEDIA_PAGE } from '../../contract/chat-media';
import {
  type ChatMediaEffects,
  type ChatMediaEntry,
  type ChatMediaPage,
  type ChatMediaRequest,
  chatMediaMachine,
} from '../../machines/conversationInfo/chatMedia/chatMedia.machine';
import type { Services } from '../app/services';

/** A server item as its tab shows it. */
export function entryOf({ message, links }: ChatMediaItem): ChatMediaEntry {
  return {
    messageId: message.id,
    createdAt: message.createdAt,
    senderId: message.senderId,
    pictures: message.attachments
      .filter((a) => a.type === 'IMAGE')
      .map((a) => ({ url: a.url, ...(a.name ? { name: a.name } : {}) })),
    files: message.attachments.filter((a) => a.type !== 'IMAGE').map((a) => ({ name: a.name ?? 'Файл', size: a.size })),
    links,
    text: message.content,
    durationMs: message.voice?.durationMs ?? null,
  };
}

export async function loadChatMediaPage(s: Services, r: ChatMediaRequest): Promise<ChatMediaPage> {
  if (r.secret) {
    const [{ secretMediaPage }, { secretCrypto }] = await Promise.all([
      import('./secret-media'),
      import('../secretChats/crypto/worker-client'),
    ]);
    return secretMediaPage(await secretCrypto().plaintexts(r.userId, r.conversationId), r, CHAT_MEDIA_PAGE);
  }
  const answer = await s.api.call('chatMedia', {
    params: { id: r.conversationId },
    query: { kind: r.kind, limit: CHAT_MEDIA_PAGE, ...(r.before ? { before: r.before } : {}) },
  });
  return { entries: answer.items.map(entryOf), nextBefore: answer.nextBefore };
}

export const wireChatMedia = (s: Services) =>
  chatMediaMachine.provide({
    actors: {
      loadPage: fromPromise<ChatMediaPage, ChatMediaRequest>(({ input }) => loadChatMediaPage(s, input)),
    } satisfies ChatMediaEffects,
  });
