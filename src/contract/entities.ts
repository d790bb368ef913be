// Entities shared by client and server (docs/behaviour.md §3). Responses use z.object (extra keys stripped);
// request bodies use z.strictObject so unknown fields are refused at the edge.
import { z } from 'zod';
import { isSingleEmoji } from './emoji';
import { LIMITS, POLL, VOICE } from './limits';
import { MESSAGE_PRIVACY } from './message-privacy';

/** Server ids are UUIDs; the charset keeps NUL and other bytes PostgreSQL refuses out of queries (a 400, not a 500). */
export const Id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Некорректный идентификатор');
/** Free text that is stored or queried: PostgreSQL text cannot hold NUL, so it is refused at the edge. */
export const noNul = (s: string) => !s.includes('\u0000');
export const NUL_MESSAGE = 'Текст содержит недопустимый символ';
export const IsoDate = z.string();

export const PresenceStatus = z.enum(['ONLINE', 'AWAY', 'DND', 'OFFLINE']);
export type PresenceStatus = z.infer<typeof PresenceStatus>;

export const Eblid = z.string().regex(/^\d{4}$/, 'EBLID — четыре цифры');

/** One's own status (custom-status.ts): an emoji and/or a short text, cleared by the server at `expiresAt`. */
export const CustomStatus = z.object({ emoji: z.string(), text: z.string(), expiresAt: IsoDate.nullable() });
export type CustomStatus = z.infer<typeof CustomStatus>;

/** Public fields of a user; what anyone signed in may see. */
export const PublicUser = z.object({
  id: Id,
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  status: PresenceStatus,
  lastSeenAt: IsoDate.nullable(),
  /** Four digits; empty for a deleted account. */
  eblid: Eblid.or(z.literal('')),
  bio: z.string().nullable(),
  /** The status of one's own beside the name (null: none; absent in records stored before it existed). */
  customStatus: CustomStatus.nullable().optional(),
  /** Set (true) once an administrator deactivated the account: the profile shows «Аккаунт отключён». */
  deactivated: z.boolean().optional(),
  /**
   * Set (true) for a deleted account: «Удалённый аккаунт», and nothing that identified the person (username and
   * EBLID empty, no picture, bio or last-seen time).
   */
  deleted: z.boolean().optional(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** An account's role on the server: administrators see «Администрирование» (docs/administration.md). */
export const ServerRole = z.enum(['admin', 'member']);
export type ServerRole = z.infer<typeof ServerRole>;

/** The signed-in user's own record: public fields plus the private ones (e-mail, role). */
export const User = PublicUser.extend({
  email: z.string().nullable(),
  // A session stored before roles existed has none: a member's until /status/me answers (shape.ts agrees).
  role: ServerRole.default('member'),
  // «Кто может мне писать» (the server always sends it; absent in a session stored before it existed: the default).
  messagePrivacy: z.enum(MESSAGE_PRIVACY).optional(),
});
export type User = z.infer<typeof User>;

/** A signed-in session as the client keeps it (docs/behaviour.md §3: user, accessToken, refreshToken). */
export interface Session {
  user: User;
  accessToken: string;
  refreshToken: string;
}

/** AUDIO: an upload whose bytes are an audio-only container (Opus in WebM or Ogg, AAC in MP4), served inline. */
export const AttachmentType = z.enum(['IMAGE', 'FILE', 'AUDIO']);
export type AttachmentType = z.infer<typeof AttachmentType>;

export const Attachment = z.object({
  url: z.string(),
  type: AttachmentType,
  // Not in the seed: the original file name and size, so 'Файл: name' has a name to show.
  name: z.string().nullable(),
  size: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type Attachment = z.infer<typeof Attachment>;

export const ReceiptStatus = z.enum(['READ', 'SEEN']);
export const Receipt = z.object({ userId: Id, status: ReceiptStatus });
export type Receipt = z.infer<typeof Receipt>;

/** Any one emoji (./emoji: a single RGI emoji grapheme); the six of REACTION_EMOJI are the quick ones. */
export const ReactionEmoji = z.string().refine(isSingleEmoji, 'Реакция — один эмодзи');
/** One emoji with who gave it, in the order they did. */
export const Reaction = z.object({ emoji: z.string(), userIds: z.array(Id) });
export type Reaction = z.infer<typeof Reaction>;

/**
 * CALL entries (server/calls/call-log.ts) and SYSTEM entries (server/conversations/system-entries.ts) are written
 * by the server alone; SendType is what a client may post. ENCRYPTED is a secret chat's message: `content` is MLS
 * ciphertext in base64 (POST /api/secret/send), which only the members' devices can read (docs/secret-chats.md).
 */
// POLL: a poll («Опрос», docs/behaviour.md §10.33 Polls) made by POST /api/polls; `content` is its question.
export const MessageType = z.enum(['TEXT', 'IMAGE', 'FILE', 'VOICE', 'CALL', 'SYSTEM', 'ENCRYPTED', 'POLL']);
export type MessageType = z.infer<typeof MessageType>;
export const SendType = z.enum(['TEXT', 'IMAGE', 'FILE', 'VOICE']);
export type SendType = z.infer<typeof SendType>;

/** A voice message's length and its waveform: VOICE.waveformMax peaks of 0..VOICE.peakMax computed in the browser. */
export const VoiceInfo = z.strictObject({
  durationMs: z
    .number()
    .int('Длительность — целое число миллисекунд')
    .min(VOICE.minDurationMs, 'Голосовое сообщение слишком короткое')
    .max(VOICE.maxDurationMs, `Голосовое сообщение — не длиннее ${VOICE.maxDurationMs / 60_000} минут`),
  waveform: z
    .array(
      z
        .number()
        .int('Пики волны — целые числа')
        .min(0, 'Пик волны — от 0')
        .max(VOICE.peakMax, `Пик волны — до ${VOICE.peakMax}`),
    )
    .min(1, 'Волна не может быть пустой')
    .max(VOICE.waveformMax, `Волна — не больше ${VOICE.waveformMax} пиков`),
});
export type VoiceInfo = z.infer<typeof VoiceInfo>;

export const CallKind = z.enum(['audio', 'video']);
export const CallOutcome = z.enum(['answered', 'declined', 'missed', 'cancelled']);
export type CallOutcome = z.infer<typeof CallOutcome>;
/** A call as an entry of the conversation: the message's senderId is whoever started it. */
export const CallInfo = z.object({
  kind: CallKind,
  outcome: CallOutcome,
  callerId: Id,
  /** Seconds between the answer and the hang-up; 0 unless answered. A group call: from its start to its end. */
  durationSec: z.number().int().min(0),
  /** A group's call only: who took part, in joining order (a member rung who is not here missed it). */
  participantIds: z.array(Id).optional(),
});
export type CallInfo = z.infer<typeof CallInfo>;

/** A group's call that is on (docs/calls.md "Group calls"): who is in it now, in joining order. */
export const GroupCall = z.object({
  conversationId: Id,
  startedAt: IsoDate,
  startedBy: Id,
  video: z.boolean(),
  participantIds: z.array(Id),
  /** Raised hands («Поднять руку»): who, in the order they were raised (docs/calls.md "Group calls"). */
  hands: z.array(Id).optional(),
});
export type GroupCall = z.infer<typeof GroupCall>;

/** Who did a membership change and to whom, with the names they had then (a removed member leaves the list). */
export const SystemPerson = z.object({ id: Id, name: z.string() });
// 'joinedOpen': joined an open group from «Открытые группы» (docs/behaviour.md §10.25).
export const SystemKind = z.enum([
  'created',
  'added',
  'removed',
  'left',
  'joined',
  'renamed',
  'photo',
  'pinned',
  'joinedOpen',
  // «История для новых участников» switched to «Видна» / «Скрыта».
  'historyShown',
  'historyHidden',
  // History import (docs/behaviour.md §10.38): the divider after the imported messages, and a service line of the
  // export (someone joined, the chat was renamed there); `content` holds the Russian text of either.
  'imported',
  'importedService',
]);
export type SystemKind = z.infer<typeof SystemKind>;
/** A group's change as an entry of its timeline; the message's senderId is the actor. */
export const SystemInfo = z.object({
  kind: SystemKind,
  actor: SystemPerson,
  /** added / removed: the members concerned. */
  targets: z.array(SystemPerson),
  /** renamed: the new title. */
  title: z.string().nullable(),
  /** pinned: the pinned message and the start of its text (or what it holds, in words) as it was then. */
  messageId: Id.nullable().optional(),
  excerpt: z.string().nullable().optional(),
  /** imported: where from and how many messages this import stored. */
  imported: z.object({ source: z.enum(['telegram', 'whatsapp']), count: z.number().int() }).optional(),
});
export type SystemInfo = z.infer<typeof SystemInfo>;

/** One option of a poll with its votes; `voters` (who chose it) only in a poll that is not anonymous. */
export const PollOption = z.object({
  id: z.string(),
  text: z.string(),
  votes: z.number().int(),
  voters: z.array(Id).optional(),
});
export type PollOption = z.infer<typeof PollOption>;

/**
 * A poll as one member sees it: the options with their counts (live for everyone), how many people voted, and what
 * is the viewer's own: `mine` (the options they chose), and in a quiz the right option and the explanation, only
 * once they voted or the poll is closed.
 */
export const PollInfo = z.object({
  question: z.string(),
  options: z.array(PollOption),
  multiple: z.boolean(),
  anonymous: z.boolean(),
  quiz: z.boolean(),
  closed: z.boolean(),
  /** Distinct people who voted (the base of the percentages). */
  voterCount: z.number().int(),
  /** Grows with every change of votes or closing: an older update arriving late is ignored. */
  version: z.number().int(),
  /** The viewer's choice; absent in an event to others (each keeps their own). */
  mine: z.array(z.string()).optional(),
  correctOptionId: z.string().nullable().optional(),
  explanation: z.string().nullable().optional(),
});
export type PollInfo = z.infer<typeof PollInfo>;

const pollText = (max: number, tooLong: string) =>
  z
    .string()
    .max(max, tooLong)
    .refine(noNul, NUL_MESSAGE)
    .transform((s) => s.trim());

/** What «Создать опрос» sends (POST /api/polls). */
export const NewPoll = z
  .strictObject({
    conversationId: Id,
    question: pollText(POLL.questionMax, `Вопрос — не длиннее ${POLL.questionMax} символов`).refine(
      (s) => s.length > 0,
      'Напишите вопрос',
    ),
    options: z
      .array(pollText(POLL.optionMax, `Вариант ответа — не длиннее ${POLL.optionMax} символов`))
      .min(POLL.optionsMin, `Нужно хотя бы ${POLL.optionsMin} варианта ответа`)
      .max(POLL.optionsMax, `Вариантов ответа — не больше ${POLL.optionsMax}`)
      .refine((o) => o.every((s) => s.length > 0), 'Вариант ответа не может быть пустым')
      .refine(
        (o) => new Set(o.map((s) => s.toLocaleLowerCase('ru'))).size === o.length,
        'Варианты ответа не должны повторяться',
      ),
    multiple: z.boolean().default(false),
    anonymous: z.boolean().default(false),
    /** A quiz: the index of its one right option (a quiz is single choice). */
    correctOption: z
      .number()
      .int()
      .min(0)
      .max(POLL.optionsMax - 1)
      .nullable()
      .default(null),
    explanation: pollText(POLL.explanationMax, `Пояснение — не длиннее ${POLL.explanationMax} символов`)
      .nullable()
      .default(null),
  })
  .refine((p) => p.correctOption === null || p.correctOption < p.options.length, {
    message: 'Правильный ответ должен быть одним из вариантов',
    path: ['correctOption'],
  })
  .refine((p) => p.correctOption === null || !p.multiple, {
    message: 'В викторине выбирают один ответ',
    path: ['multiple'],
  })
  .refine((p) => p.correctOption !== null || !p.explanation, {
    message: 'Пояснение бывает только у викторины',
    path: ['explanation'],
  });
export type NewPoll = z.input<typeof NewPoll>;

export const ForwardedFrom = z.object({ userId: Id, name: z.string() });
export type ForwardedFrom = z.infer<typeof ForwardedFrom>;

/** A root message's thread: how many replies, when the last came and the last repliers (newest first, up to 3). */
export const ThreadSummary = z.object({
  replyCount: z.number().int(),
  lastReplyAt: IsoDate.nullable(),
  repliers: z.array(Id),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

/**
 * The card under a message's first http(s) link (docs/behaviour.md §10.30 Link previews): `pending` while the
 * server fetches the page, `ready` with what it found, `failed` when there is nothing to show. The picture is the
 * server's own re-encoded copy (/uploads/previews/<key>), never the site's address.
 */
export const LinkPreview = z.object({
  url: z.string(),
  status: z.enum(['pending', 'ready', 'failed']),
  siteName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  image: z.object({ url: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
});
export type LinkPreview = z.infer<typeof LinkPreview>;

/**
 * A formatted range of a message's text (./message-entities: offsets in UTF-16 code units). The type is any string
 * here, so a client meets a type newer than itself as plain text instead of refusing the message.
 */
export const TextEntity = z.object({
  type: z.string(),
  offset: z.number().int(),
  length: z.number().int(),
  language: z.string().optional(),
  url: z.string().optional(),
});
export type TextEntity = z.infer<typeof TextEntity>;

export const Message = z.object({
  id: Id,
  conversationId: Id,
  senderId: Id,
  type: MessageType,
  content: z.string(),
  createdAt: IsoDate,
  deletedAt: IsoDate.nullable(),
  /** When the sender last changed the text; null if never. */
  editedAt: IsoDate.nullable(),
  clientMessageId: z.string().nullable(),
  replyTo: z.object({ id: Id, content: z.string() }).nullable(),
  attachments: z.array(Attachment),
  receipts: z.array(Receipt),
  /** The quick ones (REACTION_EMOJI) in their order first, then others by first use; only emoji someone gave. */
  reactions: z.array(Reaction),
  /** VOICE messages only. */
  voice: z
    .object({ durationMs: z.number().int(), waveform: z.array(z.number().int()) })
    .nullable()
    .optional(),
  /** CALL entries only. */
  call: CallInfo.nullable().optional(),
  /** SYSTEM entries only. */
  system: SystemInfo.nullable().optional(),
  /** POLL messages only. */
  poll: PollInfo.nullable().optional(),
  /** A forwarded copy: who wrote the original, with the name they had when it was forwarded. */
  forwardedFrom: ForwardedFrom.nullable().optional(),
  /** The members mentioned (@name), by id: the text shows their current names. */
  mentions: z.array(Id).optional(),
  /** The text's formatting (bold, code, links with their own text…); absent when it is plain. */
  entities: z.array(TextEntity).optional(),
  /** A secret chat's edit or reaction (ENCRYPTED): applied by the devices, never shown as a message. */
  control: z.literal(true).optional(),
  /** A thread reply: the root message it answers (replies are not in the main timeline). */
  threadRootId: Id.nullable().optional(),
  /** A root with replies: its thread's summary («N ответов»). */
  thread: ThreadSummary.optional(),
  /** The card of its first http(s) link; absent when it has none or the sender removed it. */
  preview: LinkPreview.optional(),
  /** A reminder in «Избранное» (docs/behaviour.md §10.32): the message it recalls, to open it where it is. */
  reminderOf: z.object({ conversationId: Id, messageId: Id }).optional(),
  /** An imported message (docs/behaviour.md §10.38): the chat it was exported from. */
  importedFrom: z.enum(['telegram', 'whatsapp']).optional(),
  /**
   * An imported message whose author the importer matched to nobody here: their name as the export has it (the
   * sender is then the importer); shown as «Ольга (из Telegram)».
   */
  importedAuthor: z.string().optional(),
});
export type Message = z.infer<typeof Message>;

/**
 * One message found by search: `snippet` is plain text around the first match (the message's text, or the
 * name of the file that matched), `highlights` are [start, end) character ranges in it.
 */
export const SearchResult = z.object({
  conversationId: Id,
  message: Message,
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** A group's creator is its OWNER (there is always exactly one); both people of a direct chat are MEMBERs. */
export const ParticipantRole = z.enum(['OWNER', 'ADMIN', 'MEMBER']);
export type ParticipantRole = z.infer<typeof ParticipantRole>;
export const Participant = z.object({ user: PublicUser, role: ParticipantRole });
export type Participant = z.infer<typeof Participant>;

export const Conversation = z.object({
  id: Id,
  title: z.string().nullable(),
  isGroup: z.boolean(),
  /** A group's picture (set by its owner or admins); null for direct chats and groups without one. */
  avatarUrl: z.string().nullable(),
  participants: z.array(Participant),
  /** At most one element: the latest message (docs/behaviour.md §3). */
  messages: z.array(Message),
  /** When it was made: a conversation without messages sorts by it (docs/behaviour.md §2). Absent in older lists. */
  createdAt: IsoDate.optional(),
  /** A secret chat (docs/secret-chats.md): its messages are ENCRYPTED, for the members' devices only. */
  secret: z.boolean().optional(),
  /** An open group: listed in «Открытые группы», joined with one click (docs/behaviour.md §10.25). */
  open: z.boolean().optional(),
  /**
   * A group's «История для новых участников»: true («Видна») lets whoever joins read the whole history, false
   * («Скрыта») only what comes after. Absent for direct and secret chats (and in older lists).
   */
  historyVisible: z.boolean().optional(),
  /** A group whose owner or admins turned threads («Обсуждения») off; absent when they are on. */
  threadsOff: z.boolean().optional(),
  /** The caller's «Избранное», their chat with themselves: first in the list (docs/behaviour.md §10.31). */
  saved: z.boolean().optional(),
});
export type Conversation = z.infer<typeof Conversation>;

/** One person's settings of a chat (kept on the server, the same on every device). */
export const ChatSettings = z.object({
  /** An ISO time, 'forever', or null when not muted (a time past means not muted). */
  mutedUntil: z.string().nullable(),
  pinned: z.boolean(),
  /** When it was pinned: pinned chats go first in this order. */
  pinnedAt: z.string().nullable(),
  /** In «Архив» (a new message brings it back unless it is muted). */
  archived: z.boolean(),
  /** «Пометить как непрочитанное»: a dot without a number until the chat is opened (absent: not marked). */
  markedUnread: z.boolean().optional(),
});
export type ChatSettings = z.infer<typeof ChatSettings>;

export const ConversationEntry = z.object({
  conversation: Conversation,
  unreadCount: z.number().int(),
  /** Absent in lists kept by an older client: the defaults (not muted, pinned or archived). */
  settings: ChatSettings.optional(),
  /** A direct chat whose other person the user blocked (the composer gives way to «Разблокировать»). */
  blockedByMe: z.boolean().optional(),
  /** Unread messages that mention the user (the list shows «@» while there are any). */
  unreadMentions: z.number().int().optional(),
  /**
   * A group whose call is on: who is in it now, in joining order, and whether it is a video call (the tile's marker,
   * the header's call bar; «Присоединиться» comes in with the camera on for a video call).
   */
  groupCall: GroupCall.pick({ participantIds: true, video: true }).optional(),
});
export type ConversationEntry = z.infer<typeof ConversationEntry>;

export const ContactStatus = z.enum(['PENDING', 'ACCEPTED']);
export const ContactDirection = z.enum(['incoming', 'outgoing']);
export const Contact = z.object({
  id: Id,
  status: ContactStatus,
  direction: ContactDirection,
  friend: PublicUser,
});
export type Contact = z.infer<typeof Contact>;

export const ErrorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Username = z
  .string()
  .trim()
  .min(LIMITS.usernameMin, `Никнейм — не короче ${LIMITS.usernameMin} символов`)
  .max(LIMITS.usernameMax, `Никнейм — не длиннее ${LIMITS.usernameMax} символов`)
  .regex(/^[\p{L}\p{N}_.-]+$/u, 'Никнейм может содержать буквы, цифры, точку, дефис и подчёркивание');
export const DisplayName = z
  .string()
  .trim()
  .min(LIMITS.displayNameMin, `Имя — не короче ${LIMITS.displayNameMin} символов`)
  .max(LIMITS.displayNameMax, `Имя — не длиннее ${LIMITS.displayNameMax} символов`)
  .refine(noNul, NUL_MESSAGE);
export const Password = z
  .string()
  .min(LIMITS.passwordMin, `Пароль — не короче ${LIMITS.passwordMin} символов`)
  .max(LIMITS.passwordMax, `Пароль — не длиннее ${LIMITS.passwordMax} символов`);
