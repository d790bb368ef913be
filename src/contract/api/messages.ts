// Messages (server/messages/): the history, sending, editing, deleting, reactions, forwarding, pins, receipts.
// Each route's method and path are in ./messages.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { CHAT_MEDIA_KINDS, CHAT_MEDIA_PAGE, CHAT_MEDIA_PAGE_MAX, type ChatMediaKind } from '../chat-media';
import {
  AttachmentType,
  Id,
  IsoDate,
  Message,
  NUL_MESSAGE,
  noNul,
  ReactionEmoji,
  SendType,
  TextEntity,
  VoiceInfo,
} from '../entities';
import { LIMITS } from '../limits';
import { ENTITIES_MAX, ENTITY_URL_MAX } from '../message-entities';
import { ConversationParams } from './conversations';
import { messagesRoutes } from './messages.routes';
import { LocalDay, TzOffset } from './search';
import { Ok, withSchemas } from './with-schemas';

export const MessagesQuery = z.strictObject({
  /** A message id: return messages strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.messagesPageMax).default(LIMITS.messagesPageDefault),
});
export const MessagesResponse = z.object({ messages: z.array(Message), hasMore: z.boolean() });
/**
 * A formatted range as a request carries it: its shape only (the type any short string, so an unknown one gets its
 * own sentence); ../message-entities' checkEntities judges the rest against the text.
 */
const EntityInput = z.strictObject({
  type: z.string().max(32),
  offset: z.number(),
  length: z.number(),
  language: z.string().max(200).optional(),
  url: z
    .string()
    .max(ENTITY_URL_MAX * 2)
    .optional(),
});
const EntitiesInput = z
  .array(EntityInput)
  .max(ENTITIES_MAX, `Не больше ${ENTITIES_MAX} участков форматирования в сообщении`);
const Mentions = z.array(Id).max(LIMITS.mentionsMax, `Не больше ${LIMITS.mentionsMax} упоминаний в сообщении`);
export const SendBody = z.strictObject({
  conversationId: Id,
  type: SendType,
  content: z
    .string()
    .max(LIMITS.messageTextMax, `Сообщение — не длиннее ${LIMITS.messageTextMax} символов`)
    .refine(noNul, NUL_MESSAGE),
  replyToId: Id.nullable().optional(),
  attachments: z
    .array(
      z.strictObject({ url: z.string().max(LIMITS.avatarUrlMax).refine(noNul, NUL_MESSAGE), type: AttachmentType }),
    )
    .max(LIMITS.attachmentsMax)
    .optional(),
  /** The client's own id for the message (a retry with the same id returns the first message). */
  clientMessageId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'clientMessageId — печатные ASCII-символы')
    .optional(),
  /** VOICE only (and required there): the recording's length and waveform; its one attachment is the AUDIO upload. */
  voice: VoiceInfo.optional(),
  /** Members mentioned in the text (@name), by id; ids of non-members are dropped, not stored. */
  mentions: Mentions.optional(),
  /** The text's formatting as ranges over `content` (../message-entities); absent or empty: plain text. */
  entities: EntitiesInput.optional(),
  /** A reply in the thread of this root message (a message of the same group); absent: the main timeline. */
  threadRootId: Id.optional(),
});
export const MessageResponse = z.object({ message: Message });
export const DeleteMessageBody = z.strictObject({ messageId: Id });
/**
 * The messages deleted for everyone since a time, in the user's conversations (a device that was closed forgets
 * them from its offline store). Without `since` it only answers `until`, the time to ask from next; `more` means
 * there are more from `until` on.
 */
export const DeletedMessagesQuery = z.strictObject({
  since: z
    .string()
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), 'ожидается время в ISO 8601')
    .optional(),
});
export const DeletedMessagesResponse = z.object({
  deleted: z.array(z.object({ id: z.string(), conversationId: z.string() })),
  until: z.string(),
  more: z.boolean(),
});
/**
 * The socket.io id of the tab that reads: its own receipts:update is not sent back to it (it knows what it
 * read), only to the reader's other tabs.
 */
const ReaderSocket = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/, 'socketId — идентификатор соединения')
  .optional();
/** The new text of an own message; the same limits as sending (trimmed and non-empty are checked by the route). */
export const EditMessageBody = z.strictObject({
  messageId: Id,
  content: SendBody.shape.content,
  /** The mentions of the new text (absent: none). */
  mentions: Mentions.optional(),
  /** The new text's formatting (absent: plain), replacing the old. */
  entities: EntitiesInput.optional(),
});
const MessageIds = z
  .array(Id)
  .min(1, 'Не выбрано ни одного сообщения')
  .max(LIMITS.messageBatchMax, `Не больше ${LIMITS.messageBatchMax} сообщений за раз`);
/** «Удалить у меня» / «Скрыть у себя»: hidden for the user alone, on every device; `on: false` shows them again. */
export const HideMessagesBody = z.strictObject({ messageIds: MessageIds, on: z.boolean().optional() });
/**
 * «Переслать»: copies sent by the forwarder to each chat, in the order of the originals' seq, each carrying
 * forwardedFrom; attachments are shared, not uploaded again. 404 unless a member of every source and target.
 */
export const ForwardBody = z.strictObject({
  messageIds: MessageIds,
  conversationIds: z
    .array(Id)
    .min(1, 'Выберите, куда переслать')
    .max(LIMITS.forwardTargetsMax, `Переслать можно не больше чем в ${LIMITS.forwardTargetsMax} чатов за раз`),
});
export const ForwardResponse = z.object({ messages: z.array(Message) });
/** «Закрепить» / «Открепить»: in direct chats either person, in groups the owner and admins. */
export const PinBody = z.strictObject({ messageId: Id, on: z.boolean() });
/** The pinned messages, newest pin first. */
export const PinsResponse = z.object({ pins: z.array(Message) });
export const MessageParams = z.strictObject({ id: Id });
/** «Информация» on one's own message: who read it and when, and who has not yet (the sender left out). */
export const MessageInfoResponse = z.object({
  read: z.array(z.object({ userId: Id, readAt: IsoDate.nullable() })),
  unread: z.array(Id),
});
/** One text of a message: what it said from `at` on (its sending, or the edit that wrote it). */
export const MessageVersion = z.object({
  content: z.string(),
  entities: z.array(TextEntity).optional(),
  at: IsoDate,
  /** The text the message has now (first in the list). */
  current: z.boolean().optional(),
});
export type MessageVersion = z.infer<typeof MessageVersion>;
/** «История изменений»: the current text, then the earlier ones, newest first (a secret chat keeps none). */
export const MessageEditsResponse = z.object({ versions: z.array(MessageVersion) });
/** Give (`on: true`) or take back (`on: false`) one reaction of the fixed set. */
export const ReactBody = z.strictObject({ messageId: Id, emoji: ReactionEmoji, on: z.boolean() });
export const ReactResponse = z.object({ reactions: z.array(Message.shape.reactions.element) });
export const ReceiptsBody = z.strictObject({
  messageIds: z.array(Id).min(1).max(LIMITS.receiptsBatchMax),
  status: z.literal('READ'),
  socketId: ReaderSocket,
});
export const MarkReadBody = z.strictObject({ conversationId: Id, socketId: ReaderSocket });

/** The routes of ./messages.routes with their schemas. */
/** «Перейти к дате»: the day and the browser's offset from UTC (minutes east). */
export const MessageAtDateQuery = z.strictObject({ date: LocalDay, tz: TzOffset });
/** The first message the user sees in the conversation at or after that day's start; null: none since. */
export const MessageAtDateResponse = z.object({ messageId: Id.nullable() });

/** «Медиа», «Файлы», «Ссылки», «Голосовые» (docs/behaviour.md §10.46): one tab's page. */
export const ChatMediaQuery = z.strictObject({
  kind: z
    .string()
    .max(20)
    .refine((k): k is ChatMediaKind => (CHAT_MEDIA_KINDS as readonly string[]).includes(k), {
      message: 'kind — одно из: media, files, links, voice',
    }),
  /** A message id from `nextBefore`: older messages than it. */
  before: Id.optional(),
  limit: z.coerce
    .number({ message: 'limit — число' })
    .int('limit — целое число')
    .min(1, 'limit — от 1')
    .max(CHAT_MEDIA_PAGE_MAX, `limit — не больше ${CHAT_MEDIA_PAGE_MAX}`)
    .default(CHAT_MEDIA_PAGE),
});
/** A message of the tab with the http(s) links of its text (the «Ссылки» tab lists them; empty for the others). */
export const ChatMediaItem = z.object({ message: Message, links: z.array(z.string()) });
export type ChatMediaItem = z.infer<typeof ChatMediaItem>;
/** Newest first; `nextBefore` asks for the next page, null when this was the last. */
export const ChatMediaResponse = z.object({ items: z.array(ChatMediaItem), nextBefore: Id.nullable() });

export const messagesApi = withSchemas(messagesRoutes, {
  chatMedia: { params: ConversationParams, query: ChatMediaQuery, response: ChatMediaResponse },
  messageAtDate: { params: ConversationParams, query: MessageAtDateQuery, response: MessageAtDateResponse },
  messages: { params: ConversationParams, query: MessagesQuery, response: MessagesResponse },
  send: { body: SendBody, response: MessageResponse },
  deleteMessage: { body: DeleteMessageBody, response: Ok },
  deletedMessages: { query: DeletedMessagesQuery, response: DeletedMessagesResponse },
  editMessage: { body: EditMessageBody, response: MessageResponse },
  react: { body: ReactBody, response: ReactResponse },
  hideMessages: { body: HideMessagesBody, response: Ok },
  forwardMessages: { body: ForwardBody, response: ForwardResponse },
  pinMessage: { body: PinBody, response: PinsResponse },
  pins: { params: ConversationParams, response: PinsResponse },
  messageInfo: { params: MessageParams, response: MessageInfoResponse },
  messageEdits: { params: MessageParams, response: MessageEditsResponse },
  receipts: { body: ReceiptsBody, response: Ok },
  markRead: { body: MarkReadBody, response: Ok },
});
