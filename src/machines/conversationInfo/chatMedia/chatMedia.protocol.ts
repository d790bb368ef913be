// «Медиа», «Файлы», «Ссылки», «Голосовые» in «Информация» (docs/behaviour.md §10.46; spawned while the panel is
// open): which tab is shown, each tab's pages newest first, and the jump to a file's, link's or voice message's
// place in the chat. A plain chat's pages come from GET /api/conversations/:id/media, a secret chat's from what this
// browser decrypted (its effects decide; the machine does not know). Views import this module, never
// chatMedia.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { ChatMediaKind } from '../../../contract/chat-media';
import type { LightboxItem } from '../../conversation/lightbox/lightbox.protocol';
import type { MachineRef } from '../../shared/machine-ref';

export type { ChatMediaKind } from '../../../contract/chat-media';

export const CHAT_MEDIA_FAILED = 'Не удалось загрузить. Проверьте подключение.';

/** What each tab says while it has nothing. */
export const CHAT_MEDIA_EMPTY: Record<ChatMediaKind, string> = {
  media: 'Здесь пока нет фото',
  files: 'Здесь пока нет файлов',
  links: 'Здесь пока нет ссылок',
  voice: 'Здесь пока нет голосовых сообщений',
};

/** One message of a tab, as the tab shows it. */
export interface ChatMediaEntry {
  messageId: string;
  createdAt: string;
  senderId: string;
  /** «Медиа»: the message's pictures (a secret chat's carry what decrypts them). */
  pictures: LightboxItem[];
  /** «Файлы» and «Голосовые»: the attached files' names and sizes. */
  files: { name: string; size: number | null }[];
  /** «Ссылки»: the http(s) addresses in the text, in order. */
  links: string[];
  /** The message's text (a caption, the words around a link). */
  text: string;
  /** «Голосовые»: the recording's length. */
  durationMs: number | null;
}

export interface ChatMediaPage {
  entries: ChatMediaEntry[];
  /** Where the next page starts; null when this was the last. */
  nextBefore: string | null;
}

export interface ChatMediaRequest {
  conversationId: string;
  userId: string;
  secret: boolean;
  kind: ChatMediaKind;
  before: string | null;
}

export interface ChatMediaInput {
  conversationId: string;
  userId: string;
  /** A secret chat: the pages are built from this browser's decrypted messages. */
  secret: boolean;
}

/** A tab's pages so far. */
export interface ChatMediaTab {
  entries: ChatMediaEntry[];
  nextBefore: string | null;
  /** Its first page has come. */
  loaded: boolean;
}

export interface ChatMediaContext extends ChatMediaInput {
  tab: ChatMediaKind;
  tabs: Record<ChatMediaKind, ChatMediaTab>;
  error: string | null;
}

export type ChatMediaEvent =
  | { type: 'chatMedia.tab'; kind: ChatMediaKind }
  /** The list was scrolled to its end: the next page, if there is one. */
  | { type: 'chatMedia.more' }
  /** «Повторить» after a failure. */
  | { type: 'chatMedia.retry' }
  /** Show the message in the chat (a file, a link, a voice message): the jump a search result makes. */
  | { type: 'chatMedia.jump'; messageId: string };

export type ChatMediaEmitted = { type: 'chatMedia.jumped'; messageId: string };

/** Tags the view asks. */
export const CHAT_MEDIA_TAGS = { loading: 'loading', loadingMore: 'loadingMore', failed: 'failed' } as const;

export type ChatMediaRef = MachineRef<ChatMediaContext, ChatMediaEvent, ChatMediaEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversationInfo/chatMedia.effects.ts).
 */
export interface ChatMediaEffects {
  loadPage: PromiseActorLogic<ChatMediaPage, ChatMediaRequest>;
}

export const emptyTab = (): ChatMediaTab => ({ entries: [], nextBefore: null, loaded: false });

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Медиа», «Файлы», «Ссылки», «Голосовые» of «Информация» (spawned while the panel is open). */
    chatMedia: ChatMediaRef;
  }
}
