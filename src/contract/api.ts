// The REST contract: every route under /api with its request and response schemas.
// The server registers routes from this table. The client calls the same routes from the zod-free table in
// ./routes and takes only types from here (import type), so zod stays out of the browser bundle.
import { z } from 'zod';
import {
  AdminReportsQuery,
  AdminReportsResponse,
  AdminRoleBody,
  AdminStatsResponse,
  AdminUserBody,
  AdminUserResponse,
  AdminUsersQuery,
  AdminUsersResponse,
  CreateRegistrationInviteBody,
  InstanceResponse,
  InviteCode,
  PasswordResetInfoResponse,
  PasswordResetParams,
  RegistrationInfoResponse,
  RegistrationInviteResponse,
  RegistrationInvitesResponse,
  ReportBody,
  ReportNoticesResponse,
  ReportNoticesSeenBody,
  ResetLinkResponse,
  ResetPasswordBody,
  ResolveReportBody,
  RevokeRegistrationInviteBody,
  ServerSettingsBody,
  ServerSettingsResponse,
} from './administration';
import { DirectoryGroupsResponse, DirectoryQuery, DirectoryUsersResponse } from './directory';
import {
  Attachment,
  AttachmentType,
  CallInfo,
  ChatSettings,
  Contact,
  Conversation,
  ConversationEntry,
  DisplayName,
  Eblid,
  Id,
  IsoDate,
  Message,
  NewPoll,
  NUL_MESSAGE,
  noNul,
  ParticipantRole,
  Password,
  PollInfo,
  PresenceStatus,
  PublicUser,
  ReactionEmoji,
  SearchResult,
  SendType,
  User,
  Username,
  VoiceInfo,
} from './entities';
import {
  CreateGuestLinkBody,
  GuestAdmissionBody,
  GuestAdmissionResponse,
  GuestCodeParams,
  GuestKnockBody,
  GuestKnockResponse,
  GuestLinkInfoResponse,
  GuestLinkResponse,
  GuestLinksQuery,
  GuestLinksResponse,
  GuestTokenResponse,
  KnockParams,
  KnockSecretBody,
  RevokeGuestLinkBody,
  WaitingGuestsResponse,
} from './guests';
import {
  ImportChooseBody,
  ImportJobResponse,
  ImportJobsResponse,
  ImportParams,
  ImportStartBody,
  ImportUploadQuery,
  SecretImportBatchBody,
  SecretImportBatchResponse,
} from './imports';
import { LIMITS, POLL } from './limits';
import {
  PasskeyParams,
  PasskeyRegisterBody,
  PasskeyRegisterOptionsBody,
  PasskeyRegisterOptionsResponse,
  PasskeyRemoveBody,
  PasskeyRenameBody,
  PasskeyResponse,
  PasskeySignInBody,
  PasskeySignInOptionsBody,
  PasskeySignInOptionsResponse,
  PasskeysResponse,
} from './passkeys';
import { OidcCompleteBody, OidcCreateBody, OidcLinkBody, OidcPending, SignInMethodsResponse } from './oidc';
import { MESSAGE_PRIVACY } from './message-privacy';
import { PUSH } from './notification';
import {
  importUploadEndpoint,
  type RouteInfo,
  type RouteName,
  type Routes,
  routes,
  secretUploadEndpoint,
  uploadEndpoint,
} from './routes';
import {
  ClaimBody,
  ClaimResponse,
  CommitBody,
  CommitResponse,
  CreateSecretBody,
  DeviceResponse,
  KeyPackagesBody,
  KeyPackagesLeftResponse,
  LogParams,
  LogQuery,
  LogResponse,
  RegisterDeviceBody,
  RejoinBody,
  RejoinResponse,
  SecretSendBody,
  SecretSendResponse,
  SecretUploadQuery,
  SecretUploadResponse,
  StateQuery,
  StateResponse,
} from './secret';
import {
  BackupChunkBody,
  BackupChunkResponse,
  BackupChunksQuery,
  BackupChunksResponse,
  BackupInfoResponse,
  BackupKeyBody,
} from './secret-backup';
import {
  ApprovalAnswerBody,
  ApprovalParams,
  ApprovalRequestBody,
  ApprovalResponse,
  ApprovalsResponse,
  IdentitiesQuery,
  IdentitiesResponse,
  IdentityResponse,
  SetIdentityBody,
} from './secret-identity';

const Ok = z.object({ ok: z.literal(true) });

export const RegisterBody = z.strictObject({
  username: Username,
  displayName: DisplayName,
  password: Password,
  /** Needed while registration is «По приглашениям» (src/contract/administration.ts). */
  inviteCode: InviteCode.optional(),
});
export const LoginBody = z.strictObject({
  username: z.string().min(1, 'Введите никнейм').max(LIMITS.usernameMax).refine(noNul, NUL_MESSAGE),
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
  /** The device marks this browser was given at earlier sign-ins (server/auth/device-marks.ts), newest first. */
  deviceMarks: z.array(z.string().max(128)).max(10).optional(),
});
export const Tokens = z.object({ accessToken: z.string(), refreshToken: z.string() });
/** `deviceMark`: this browser's mark for the account, to keep and send with later sign-ins (survives sign-out). */
/** `twoFactorSetup`: the server requires a second factor of this account, which has none yet: set it up now. */
export const SignedIn = Tokens.extend({
  user: User,
  deviceMark: z.string().optional(),
  twoFactorSetup: z.boolean().optional(),
});
/**
 * The password was right and the account has a second factor this browser is not remembered for: no session yet,
 * a challenge for `loginSecondFactor` (valid five minutes).
 */
export const SecondFactorNeeded = z.object({
  secondFactor: z.object({
    challenge: z.string(),
    /** Which ways the account has: a code from the app (and recovery codes), a passkey (§10.7b). */
    totp: z.boolean(),
    passkey: z.boolean(),
  }),
});
export const LoginResponse = z.union([SignedIn, SecondFactorNeeded]);
const OtpCode = z.string().trim().min(1, 'Введите код').max(32, 'Код слишком длинный').refine(noNul, NUL_MESSAGE);
export const LoginSecondFactorBody = z.strictObject({
  challenge: z.string().min(1, 'Вход истёк, введите пароль снова').max(1024, 'Вход истёк, введите пароль снова'),
  /** Six digits from the app, or a recovery code. */
  code: OtpCode,
  /** «Запомнить этот браузер на 30 дней». */
  remember: z.boolean().optional(),
});
/** «Безопасность»: whether the second factor is on, the recovery codes left, and whether the server requires it. */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
});
/** Setting up anew while it is on (a reset) needs the password; the first set-up does not. */
export const TwoFactorBeginBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax).optional(),
});
/** The new secret (as text, to type in) and its otpauth:// address (for the QR code). */
export const TwoFactorBeginResponse = z.object({ secret: z.string(), uri: z.string() });
export const TwoFactorConfirmBody = z.strictObject({ code: OtpCode });
/** Shown once: only their digests are kept. */
export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export const TwoFactorPasswordBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
});
/** The end of a sign-in through the organisation's provider (src/contract/oidc.ts): exactly one of the two is set. */
export const OidcCompleteResponse = z.object({ signedIn: SignedIn.nullable(), pending: OidcPending.nullable() });
export type OidcCompleteResponse = z.infer<typeof OidcCompleteResponse>;
export const RefreshBody = z.strictObject({ refreshToken: z.string().min(1).max(512) });
export const LogoutBody = RefreshBody;

/** A sign-in as «Устройства» lists it: browser and system from its user agent (null when unknown). */
export const SignIn = z.object({
  id: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** The sign-in making this request («Это устройство»). */
  current: z.boolean(),
  /** The name of the passkey that signed it in (while that passkey is kept), or null. */
  passkey: z.string().nullable(),
});
export const SessionsResponse = z.object({ sessions: z.array(SignIn) });
export const SessionParams = z.strictObject({ id: Id });
export const DeleteAccountBody = z.strictObject({
  password: z.string().min(1, 'Введите пароль').max(LIMITS.passwordMax),
});
/**
 * «Экспорт данных» (docs/accounts.md): a ZIP built in the background. `progress` runs from 0 to 1; `downloadUrl` is
 * set once it is ready (a same-origin link with a signed token valid for a few minutes: fetch the status again for a
 * fresh one). Kept until `expiresAt` (24 hours after it was asked for), then gone.
 */
export const ExportStatus = z.object({
  id: z.string(),
  status: z.enum(['building', 'ready', 'failed']),
  progress: z.number().min(0).max(1),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The ZIP's size in bytes once ready. */
  size: z.number().nullable(),
  downloadUrl: z.string().nullable(),
});
export const ExportResponse = z.object({ export: ExportStatus });
export const LatestExportResponse = z.object({ export: ExportStatus.nullable() });
export const ExportParams = z.strictObject({ id: Id });
export const ChangePasswordBody = z.strictObject({
  currentPassword: z.string().min(1, 'Введите текущий пароль').max(LIMITS.passwordMax),
  newPassword: Password,
});

/** An uploaded file (a same-origin path), an http(s) URL, or an emoji avatar in the text form emoji:<char>. */
export const AvatarUrl = z
  .string()
  .max(LIMITS.avatarUrlMax)
  .refine(
    (v) => /^emoji:.{1,16}$/u.test(v) || (/^\/[\w./-]+$/.test(v) && !v.includes('..')) || /^https?:\/\/[^\s]+$/.test(v),
    {
      message: 'Аватар: ссылка на загруженный файл, http(s)-адрес или emoji:<символ>',
    },
  );

export const MeResponse = z.object({ user: User });
export const PatchMeBody = z
  .strictObject({
    avatarUrl: AvatarUrl.nullable().optional(),
    displayName: DisplayName.optional(),
    bio: z
      .string()
      .trim()
      .max(LIMITS.bioMax, `О себе — не длиннее ${LIMITS.bioMax} символов`)
      .refine(noNul, NUL_MESSAGE)
      .nullable()
      .optional(),
    status: PresenceStatus.optional(),
    messagePrivacy: z
      .enum(MESSAGE_PRIVACY, 'Кто может мне писать: все, участники общих групп или только друзья')
      .optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Нечего изменять' });

export const ContactsFilter = z.enum(['accepted', 'incoming', 'outgoing', 'all']);
export const ContactsQuery = z.strictObject({ filter: ContactsFilter.default('all') });
export const ContactsResponse = z.object({ contacts: z.array(Contact) });
export const ContactSearchQuery = z.strictObject({ code: Eblid });
export const ContactSearchResponse = z.object({ results: z.array(PublicUser) });
export const ContactAddBody = z.strictObject({
  identifier: z
    .string()
    .trim()
    .min(1, 'Укажите ID, ник или email')
    .max(LIMITS.identifierMax)
    .refine(noNul, NUL_MESSAGE),
});
export const ContactResponse = z.object({ contact: Contact });
export const ContactRespondBody = z.strictObject({ contactId: Id, action: z.enum(['accept', 'reject']) });
export const ContactRespondResponse = z.object({ contact: Contact.nullable() });
export const ContactRemoveBody = z.strictObject({ contactId: Id });

export const ConversationsResponse = z.object({ conversations: z.array(ConversationEntry) });
export const CreateConversationBody = z.strictObject({
  participantIds: z.array(Id).min(1, 'Выберите участников').max(LIMITS.groupParticipantsMax),
  title: z
    .string()
    .trim()
    .max(LIMITS.groupTitleMax, `Название — не длиннее ${LIMITS.groupTitleMax} символов`)
    .refine(noNul, NUL_MESSAGE)
    .nullable()
    .optional(),
  isGroup: z.boolean().optional(),
});
export const ConversationResponse = z.object({ conversation: Conversation });
export const ConversationWithBody = z.strictObject({ userId: Id });
/** A group's invite link as its owner and admins see it. */
export const GroupInvite = z.object({
  code: z.string(),
  createdAt: IsoDate,
  expiresAt: IsoDate.nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
});
export const CreateInviteBody = z.strictObject({
  conversationId: Id,
  expiresAt: IsoDate.max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), 'expiresAt: время в ISO 8601')
    .refine((v) => Date.parse(v) > Date.now(), 'Срок действия уже прошёл')
    .nullable()
    .optional(),
  maxUses: z.number().int().min(1, 'Число вступлений — от 1').max(100_000).nullable().optional(),
});
export const InviteResponse = z.object({ invite: GroupInvite });
export const InvitesResponse = z.object({ invites: z.array(GroupInvite) });
export const InviteCodeParams = z.strictObject({
  code: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[\w-]+$/, 'Неверная ссылка-приглашение'),
});
export const RevokeInviteBody = z.strictObject({ code: InviteCodeParams.shape.code });
/** What a person opening a link sees before joining. */
export const InvitePreviewResponse = z.object({
  conversationId: Id,
  title: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  memberCount: z.number().int(),
  /** Already a member: «Открыть» instead of «Вступить». */
  member: z.boolean(),
});
export const MUTE_FOREVER = 'forever';
/** «Без звука» for a time, 'forever', or null to turn the sound back on; pin and archive. */
export const ChatSettingsBody = z
  .strictObject({
    mutedUntil: z
      .union([
        z.literal(MUTE_FOREVER),
        z
          .string()
          .max(40)
          .refine((v) => !Number.isNaN(Date.parse(v)), 'mutedUntil: время в ISO 8601, forever или null'),
      ])
      .nullable()
      .optional(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
  })
  .refine((b) => b.mutedUntil !== undefined || b.pinned !== undefined || b.archived !== undefined, 'Нечего менять');
export const ChatSettingsResponse = z.object({ settings: ChatSettings });
export const ConversationRefBody = z.strictObject({ conversationId: Id });
export const BlockBody = z.strictObject({ userId: Id });
export const BlockedResponse = z.object({ users: z.array(PublicUser) });
/** Friends to add to a group (owner or admins; each must be the actor's friend). */
export const AddMembersBody = z.strictObject({
  conversationId: Id,
  userIds: z.array(Id).min(1, 'Выберите участников').max(LIMITS.groupParticipantsMax),
});
export const RemoveMemberBody = z.strictObject({ conversationId: Id, userId: Id });
/** OWNER, given by the owner, hands ownership over (the owner becomes an ADMIN). */
export const MemberRoleBody = z.strictObject({ conversationId: Id, userId: Id, role: ParticipantRole });
export const LeaveConversationBody = z.strictObject({ conversationId: Id });
export const GroupTitle = z
  .string()
  .trim()
  .min(1, 'Введите название')
  .max(LIMITS.groupTitleMax, `Название — не длиннее ${LIMITS.groupTitleMax} символов`)
  .refine(noNul, NUL_MESSAGE);
/** A group's title and picture (owner or admins); null clears the picture. */
export const UpdateConversationBody = z
  .strictObject({
    title: GroupTitle.optional(),
    avatarUrl: AvatarUrl.nullable().optional(),
    /** «Открытая» (true) or invitation-only (docs/behaviour.md §10.25). */
    open: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Нечего менять');
/** «История для новых участников» of a group (owner or admins): «Видна» (true) or «Скрыта» (false). */
export const GroupHistoryBody = z.strictObject({ conversationId: Id, visible: z.boolean() });
/** What a membership change leaves: the conversation as the actor now sees it, or null once they left it. */
export const MembershipResponse = z.object({ conversation: Conversation.nullable() });
export const ConversationParams = z.strictObject({ id: Id });
export const MessagesQuery = z.strictObject({
  /** A message id: return messages strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.messagesPageMax).default(LIMITS.messagesPageDefault),
});
export const MessagesResponse = z.object({ messages: z.array(Message), hasMore: z.boolean() });
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
/** «Убрать предпросмотр»: the sender takes the link card off their message, for everyone. */
export const RemovePreviewBody = z.strictObject({ messageId: Id });
/** «Информация» on one's own message: who read it and when, and who has not yet (the sender left out). */
export const MessageInfoResponse = z.object({
  read: z.array(z.object({ userId: Id, readAt: IsoDate.nullable() })),
  unread: z.array(Id),
});
/** Give (`on: true`) or take back (`on: false`) one reaction of the fixed set. */
export const ReactBody = z.strictObject({ messageId: Id, emoji: ReactionEmoji, on: z.boolean() });
export const ReactResponse = z.object({ reactions: z.array(Message.shape.reactions.element) });
export const ReceiptsBody = z.strictObject({
  messageIds: z.array(Id).min(1).max(LIMITS.receiptsBatchMax),
  status: z.literal('READ'),
  socketId: ReaderSocket,
});
export const MarkReadBody = z.strictObject({ conversationId: Id, socketId: ReaderSocket });

export const UploadResponse = z.object({ url: z.string(), attachment: Attachment });
export type UploadResult = z.output<typeof UploadResponse>;
/**
 * POST /api/upload (multipart, see ./routes): answer 201 UploadResponse; 413 past the size limit. `url` is
 * same-origin (`/uploads/<32 hex>`) and goes into SendBody.attachments as is.
 */
export const uploadRoute = { ...uploadEndpoint, response: UploadResponse } as const;
/** POST /api/secret/uploads (raw ciphertext, see ./routes): answer 201; 413 past the file limit plus the GCM tag. */
/** POST /api/imports?conversationId= with the export as the body (src/contract/imports.ts). */
export const importUploadRoute = {
  ...importUploadEndpoint,
  query: ImportUploadQuery,
  response: ImportJobResponse,
} as const;

export const secretUploadRoute = {
  ...secretUploadEndpoint,
  query: SecretUploadQuery,
  response: SecretUploadResponse,
} as const;

export const LivekitTokenBody = z.strictObject({
  room: z.string().trim().min(1, 'Укажите комнату').max(LIMITS.roomNameMax),
  participantName: z.string().max(LIMITS.displayNameMax).refine(noNul, NUL_MESSAGE).optional(),
  participantMetadata: z.record(z.string(), z.unknown()).optional(),
});
export const LivekitTokenResponse = z.object({ token: z.string(), url: z.string() });
/** GET /api/livekit/url: the media server address the app hands out (the /calls page shows it). */
export const LivekitUrlResponse = z.object({ url: z.string() });

/** GET /api/calls: the user's calls, newest first, from the CALL entries they can see. */
export const CallHistoryQuery = z.strictObject({
  /** A message id from `nextBefore`: calls strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.callHistoryMax).default(LIMITS.callHistoryDefault),
});
export const CallHistoryEntry = z.object({
  /** The CALL entry's message id. */
  id: Id,
  conversationId: Id,
  createdAt: IsoDate,
  call: CallInfo,
});
export type CallHistoryEntry = z.infer<typeof CallHistoryEntry>;
export const CallHistoryResponse = z.object({ calls: z.array(CallHistoryEntry), nextBefore: Id.nullable() });

/** GET /api/search: `q` is free text (words, "a phrase in quotes"); operators of the index are never read from it. */
export const SearchQuery = z.strictObject({
  q: z
    .string()
    .max(LIMITS.searchQueryMax, `Запрос — не длиннее ${LIMITS.searchQueryMax} символов`)
    .refine(noNul, NUL_MESSAGE)
    .refine((q) => q.trim().length > 0, 'Введите текст для поиска'),
  conversationId: Id.optional(),
  /** A message id from `nextBefore`: results strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.searchPageMax).default(LIMITS.searchPageDefault),
});
/** A thread: its root (path `:id`) and a page of its replies, oldest first, paged back like the history. */
export const ThreadParams = z.strictObject({ id: Id });
export const ThreadResponse = z.object({
  root: Message,
  messages: z.array(Message),
  hasMore: z.boolean(),
  /** Whether the caller follows the thread (its replies count as unread and notify them). */
  following: z.boolean(),
});
export const FollowThreadBody = z.strictObject({ rootId: Id, follow: z.boolean() });
export const FollowThreadResponse = z.object({ following: z.boolean() });
export const ReadThreadBody = z.strictObject({ rootId: Id });
/** One followed thread with the caller's unread replies in it; newest reply first. */
export const FollowedThread = z.object({ conversationId: Id, root: Message, unread: z.number().int() });
export const FollowedThreadsResponse = z.object({ threads: z.array(FollowedThread) });
/** «Обсуждения» in a group on or off (owner or admins). */
export const ThreadsSettingBody = z.strictObject({ conversationId: Id, enabled: z.boolean() });
/** A poll's vote: the options chosen (one unless it is multiple choice); retracting and closing name the poll. */
export const PollVoteBody = z.strictObject({
  messageId: Id,
  optionIds: z
    .array(z.string().max(8))
    .min(1, 'Выберите вариант ответа')
    .max(POLL.optionsMax, `Вариантов ответа — не больше ${POLL.optionsMax}`),
});
export const PollBody = z.strictObject({ messageId: Id });
export const PollResponse = z.object({ conversationId: Id, messageId: Id, poll: PollInfo });
// «Отправить позже» and «Напомнить» (docs/behaviour.md §10.32): the server sends them at their time.
/** An ISO time a client gives for a scheduled send (the server checks it is ahead and within SCHEDULE.maxAheadMs). */
export const ScheduleTime = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'Укажите дату и время');
export const ScheduledKind = z.enum(['message', 'reminder']);
export const ScheduledItem = z.object({
  id: Id,
  kind: ScheduledKind,
  conversationId: Id,
  /** A message's text, or what a reminder will quote. */
  content: z.string(),
  sendAt: IsoDate,
  /** 'failed': the time came and it could not go (`failure` says why); sent ones leave the list. */
  status: z.enum(['pending', 'failed']),
  failure: z.string().nullable(),
  /** A reminder's message. */
  sourceMessageId: Id.nullable(),
  createdAt: IsoDate,
});
export type ScheduledItem = z.infer<typeof ScheduledItem>;
const ScheduledText = z
  .string()
  .max(LIMITS.messageTextMax, `Сообщение — не длиннее ${LIMITS.messageTextMax} символов`)
  .refine(noNul, NUL_MESSAGE)
  .refine((s) => s.trim().length > 0, 'Сообщение не может быть пустым');
export const ScheduleBody = z.strictObject({ conversationId: Id, content: ScheduledText, sendAt: ScheduleTime });
export const EditScheduledBody = z.strictObject({ content: ScheduledText.optional(), sendAt: ScheduleTime.optional() });
export const ScheduledParams = z.strictObject({ id: Id });
export const ScheduledResponse = z.object({ item: ScheduledItem });
export const ScheduledListResponse = z.object({ items: z.array(ScheduledItem) });
export const SendScheduledNowResponse = z.object({ message: Message });
export const RemindBody = z.strictObject({ messageId: Id, remindAt: ScheduleTime });

export const SearchResponse = z.object({ results: z.array(SearchResult), nextBefore: Id.nullable() });

export const HealthResponse = z.object({ ok: z.literal(true) });
/**
 * Readiness (503 when a check fails): each check is 'ok' or why it failed, in Russian; `redis` only when REDIS_URL
 * is set.
 */
export const HealthReadyResponse = z.object({
  ok: z.boolean(),
  checks: z.object({ database: z.string(), storage: z.string(), redis: z.string().optional() }),
  /** The release (package.json `version`) and the schema (the latest migration's number, «037»). */
  version: z.object({ release: z.string(), schema: z.string() }),
});

// Web Push (server/push/). The keys are base64url as PushSubscription.toJSON() gives them: p256dh an uncompressed
// P-256 point (65 bytes), auth 16 bytes. Whether the endpoint may be used is the server's check (https only).
const Base64Url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'Ключ подписки должен быть в base64url');
export const PushEndpoint = z.string().min(1).max(PUSH.endpointMax, 'Слишком длинный адрес подписки');
export const PushSubscribeBody = z.strictObject({
  endpoint: PushEndpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64Url(80, 100), auth: Base64Url(16, 32) }),
  /** Whether notifications may show the message text («Показывать текст сообщений»). */
  showText: z.boolean(),
});
export const PushUnsubscribeBody = z.strictObject({ endpoint: PushEndpoint });
export const PushKeyResponse = z.object({ publicKey: z.string() });

/** A route's schemas; method, path and auth come from the zod-free table in ./routes. */
interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
}
export type RouteDef = RouteInfo & RouteSchemas;

const route = <K extends RouteName, S extends RouteSchemas>(name: K, schemas: S) => ({ ...routes[name], ...schemas });

/** The route table with its schemas: every entry of ./routes, by the same name (checked below). Paths are relative to /api. */
export const api = {
  health: route('health', { response: HealthResponse }),
  healthReady: route('healthReady', { response: HealthReadyResponse }),
  register: route('register', { body: RegisterBody, response: MeResponse }),
  login: route('login', { body: LoginBody, response: LoginResponse }),
  refresh: route('refresh', { body: RefreshBody, response: Tokens }),
  loginSecondFactor: route('loginSecondFactor', { body: LoginSecondFactorBody, response: SignedIn }),
  twoFactor: route('twoFactor', { response: TwoFactorStatus }),
  twoFactorBegin: route('twoFactorBegin', { body: TwoFactorBeginBody, response: TwoFactorBeginResponse }),
  twoFactorConfirm: route('twoFactorConfirm', { body: TwoFactorConfirmBody, response: RecoveryCodesResponse }),
  twoFactorDisable: route('twoFactorDisable', { body: TwoFactorPasswordBody, response: Ok }),
  recoveryCodes: route('recoveryCodes', { body: TwoFactorPasswordBody, response: RecoveryCodesResponse }),
  passkeys: route('passkeys', { response: PasskeysResponse }),
  passkeyRegisterOptions: route('passkeyRegisterOptions', {
    body: PasskeyRegisterOptionsBody,
    response: PasskeyRegisterOptionsResponse,
  }),
  passkeyRegister: route('passkeyRegister', { body: PasskeyRegisterBody, response: PasskeyResponse }),
  passkeyRename: route('passkeyRename', { params: PasskeyParams, body: PasskeyRenameBody, response: PasskeyResponse }),
  passkeyRemove: route('passkeyRemove', { params: PasskeyParams, body: PasskeyRemoveBody, response: Ok }),
  passkeySignInOptions: route('passkeySignInOptions', {
    body: PasskeySignInOptionsBody,
    response: PasskeySignInOptionsResponse,
  }),
  passkeySignIn: route('passkeySignIn', { body: PasskeySignInBody, response: SignedIn }),
  logout: route('logout', { body: LogoutBody, response: Ok }),
  sessions: route('sessions', { response: SessionsResponse }),
  endSession: route('endSession', { params: SessionParams, response: Ok }),
  endOtherSessions: route('endOtherSessions', { response: Ok }),
  changePassword: route('changePassword', { body: ChangePasswordBody, response: Ok }),
  deleteAccount: route('deleteAccount', { body: DeleteAccountBody, response: Ok }),
  startExport: route('startExport', { response: ExportResponse }),
  latestExport: route('latestExport', { response: LatestExportResponse }),
  exportStatus: route('exportStatus', { params: ExportParams, response: ExportResponse }),
  me: route('me', { response: MeResponse }),
  patchMe: route('patchMe', { body: PatchMeBody, response: MeResponse }),
  contacts: route('contacts', { query: ContactsQuery, response: ContactsResponse }),
  contactSearch: route('contactSearch', { query: ContactSearchQuery, response: ContactSearchResponse }),
  contactAdd: route('contactAdd', { body: ContactAddBody, response: ContactResponse }),
  contactRespond: route('contactRespond', { body: ContactRespondBody, response: ContactRespondResponse }),
  contactRemove: route('contactRemove', { body: ContactRemoveBody, response: Ok }),
  conversations: route('conversations', { response: ConversationsResponse }),
  createConversation: route('createConversation', { body: CreateConversationBody, response: ConversationResponse }),
  conversationWith: route('conversationWith', { body: ConversationWithBody, response: ConversationResponse }),
  createInvite: route('createInvite', { body: CreateInviteBody, response: InviteResponse }),
  groupInvites: route('groupInvites', { params: ConversationParams, response: InvitesResponse }),
  revokeInvite: route('revokeInvite', { body: RevokeInviteBody, response: Ok }),
  invitePreview: route('invitePreview', { params: InviteCodeParams, response: InvitePreviewResponse }),
  joinByInvite: route('joinByInvite', { params: InviteCodeParams, response: ConversationResponse }),
  directoryUsers: route('directoryUsers', { query: DirectoryQuery, response: DirectoryUsersResponse }),
  directoryGroups: route('directoryGroups', { query: DirectoryQuery, response: DirectoryGroupsResponse }),
  joinOpenGroup: route('joinOpenGroup', { params: ConversationParams, response: ConversationResponse }),
  chatSettings: route('chatSettings', {
    params: ConversationParams,
    body: ChatSettingsBody,
    response: ChatSettingsResponse,
  }),
  clearHistory: route('clearHistory', { body: ConversationRefBody, response: Ok }),
  hideConversation: route('hideConversation', { body: ConversationRefBody, response: Ok }),
  blockUser: route('blockUser', { body: BlockBody, response: Ok }),
  unblockUser: route('unblockUser', { body: BlockBody, response: Ok }),
  blockedUsers: route('blockedUsers', { response: BlockedResponse }),
  addMembers: route('addMembers', { body: AddMembersBody, response: MembershipResponse }),
  removeMember: route('removeMember', { body: RemoveMemberBody, response: MembershipResponse }),
  memberRole: route('memberRole', { body: MemberRoleBody, response: MembershipResponse }),
  leaveConversation: route('leaveConversation', { body: LeaveConversationBody, response: MembershipResponse }),
  updateConversation: route('updateConversation', {
    params: ConversationParams,
    body: UpdateConversationBody,
    response: MembershipResponse,
  }),
  groupHistory: route('groupHistory', { body: GroupHistoryBody, response: MembershipResponse }),
  messages: route('messages', { params: ConversationParams, query: MessagesQuery, response: MessagesResponse }),
  send: route('send', { body: SendBody, response: MessageResponse }),
  deleteMessage: route('deleteMessage', { body: DeleteMessageBody, response: Ok }),
  deletedMessages: route('deletedMessages', { query: DeletedMessagesQuery, response: DeletedMessagesResponse }),
  editMessage: route('editMessage', { body: EditMessageBody, response: MessageResponse }),
  react: route('react', { body: ReactBody, response: ReactResponse }),
  hideMessages: route('hideMessages', { body: HideMessagesBody, response: Ok }),
  forwardMessages: route('forwardMessages', { body: ForwardBody, response: ForwardResponse }),
  pinMessage: route('pinMessage', { body: PinBody, response: PinsResponse }),
  pins: route('pins', { params: ConversationParams, response: PinsResponse }),
  messageInfo: route('messageInfo', { params: MessageParams, response: MessageInfoResponse }),
  removePreview: route('removePreview', { body: RemovePreviewBody, response: Ok }),
  receipts: route('receipts', { body: ReceiptsBody, response: Ok }),
  markRead: route('markRead', { body: MarkReadBody, response: Ok }),
  livekitToken: route('livekitToken', { body: LivekitTokenBody, response: LivekitTokenResponse }),
  livekitUrl: route('livekitUrl', { response: LivekitUrlResponse }),
  createGuestLink: route('createGuestLink', { body: CreateGuestLinkBody, response: GuestLinkResponse }),
  guestLinks: route('guestLinks', { query: GuestLinksQuery, response: GuestLinksResponse }),
  revokeGuestLink: route('revokeGuestLink', { body: RevokeGuestLinkBody, response: Ok }),
  guestAdmission: route('guestAdmission', { body: GuestAdmissionBody, response: GuestAdmissionResponse }),
  waitingGuests: route('waitingGuests', { query: GuestLinksQuery, response: WaitingGuestsResponse }),
  guestLinkInfo: route('guestLinkInfo', { params: GuestCodeParams, response: GuestLinkInfoResponse }),
  guestKnock: route('guestKnock', { params: GuestCodeParams, body: GuestKnockBody, response: GuestKnockResponse }),
  guestToken: route('guestToken', { params: KnockParams, body: KnockSecretBody, response: GuestTokenResponse }),
  guestLeave: route('guestLeave', { params: KnockParams, body: KnockSecretBody, response: Ok }),
  callHistory: route('callHistory', { query: CallHistoryQuery, response: CallHistoryResponse }),
  thread: route('thread', { params: ThreadParams, query: MessagesQuery, response: ThreadResponse }),
  followThread: route('followThread', { body: FollowThreadBody, response: FollowThreadResponse }),
  readThread: route('readThread', { body: ReadThreadBody, response: Ok }),
  followedThreads: route('followedThreads', { response: FollowedThreadsResponse }),
  threadsSetting: route('threadsSetting', { body: ThreadsSettingBody, response: MembershipResponse }),
  createPoll: route('createPoll', { body: NewPoll, response: MessageResponse }),
  votePoll: route('votePoll', { body: PollVoteBody, response: PollResponse }),
  retractVote: route('retractVote', { body: PollBody, response: PollResponse }),
  closePoll: route('closePoll', { body: PollBody, response: PollResponse }),
  scheduled: route('scheduled', { params: ScheduledParams, response: ScheduledListResponse }),
  schedule: route('schedule', { body: ScheduleBody, response: ScheduledResponse }),
  editScheduled: route('editScheduled', {
    params: ScheduledParams,
    body: EditScheduledBody,
    response: ScheduledResponse,
  }),
  sendScheduledNow: route('sendScheduledNow', { params: ScheduledParams, response: SendScheduledNowResponse }),
  deleteScheduled: route('deleteScheduled', { params: ScheduledParams, response: Ok }),
  remind: route('remind', { body: RemindBody, response: ScheduledResponse }),
  search: route('search', { query: SearchQuery, response: SearchResponse }),
  pushKey: route('pushKey', { response: PushKeyResponse }),
  pushSubscribe: route('pushSubscribe', { body: PushSubscribeBody, response: Ok }),
  pushUnsubscribe: route('pushUnsubscribe', { body: PushUnsubscribeBody, response: Ok }),
  registrationInfo: route('registrationInfo', { response: RegistrationInfoResponse }),
  oidcComplete: route('oidcComplete', { body: OidcCompleteBody, response: OidcCompleteResponse }),
  oidcCreate: route('oidcCreate', { body: OidcCreateBody, response: SignedIn }),
  oidcLink: route('oidcLink', { body: OidcLinkBody, response: SignedIn }),
  signInMethods: route('signInMethods', { response: SignInMethodsResponse }),
  instance: route('instance', { response: InstanceResponse }),
  passwordResetInfo: route('passwordResetInfo', { params: PasswordResetParams, response: PasswordResetInfoResponse }),
  resetPassword: route('resetPassword', { body: ResetPasswordBody, response: Ok }),
  report: route('report', { body: ReportBody, response: Ok }),
  reportNotices: route('reportNotices', { response: ReportNoticesResponse }),
  reportNoticesSeen: route('reportNoticesSeen', { body: ReportNoticesSeenBody, response: Ok }),
  registrationInvites: route('registrationInvites', { response: RegistrationInvitesResponse }),
  createRegistrationInvite: route('createRegistrationInvite', {
    body: CreateRegistrationInviteBody,
    response: RegistrationInviteResponse,
  }),
  revokeRegistrationInvite: route('revokeRegistrationInvite', { body: RevokeRegistrationInviteBody, response: Ok }),
  adminUsers: route('adminUsers', { query: AdminUsersQuery, response: AdminUsersResponse }),
  adminDeactivate: route('adminDeactivate', { body: AdminUserBody, response: AdminUserResponse }),
  adminReactivate: route('adminReactivate', { body: AdminUserBody, response: AdminUserResponse }),
  adminEndSessions: route('adminEndSessions', { body: AdminUserBody, response: AdminUserResponse }),
  adminResetSecondFactor: route('adminResetSecondFactor', { body: AdminUserBody, response: AdminUserResponse }),
  adminResetLink: route('adminResetLink', { body: AdminUserBody, response: ResetLinkResponse }),
  adminRole: route('adminRole', { body: AdminRoleBody, response: AdminUserResponse }),
  adminStats: route('adminStats', { response: AdminStatsResponse }),
  adminSettings: route('adminSettings', { response: ServerSettingsResponse }),
  patchAdminSettings: route('patchAdminSettings', { body: ServerSettingsBody, response: ServerSettingsResponse }),
  adminReports: route('adminReports', { query: AdminReportsQuery, response: AdminReportsResponse }),
  resolveReport: route('resolveReport', { body: ResolveReportBody, response: Ok }),
  secretRegisterDevice: route('secretRegisterDevice', { body: RegisterDeviceBody, response: DeviceResponse }),
  secretKeyPackages: route('secretKeyPackages', { body: KeyPackagesBody, response: KeyPackagesLeftResponse }),
  secretClaim: route('secretClaim', { body: ClaimBody, response: ClaimResponse }),
  secretCreate: route('secretCreate', { body: CreateSecretBody, response: ConversationResponse }),
  secretCommit: route('secretCommit', { body: CommitBody, response: CommitResponse }),
  secretLog: route('secretLog', { params: LogParams, query: LogQuery, response: LogResponse }),
  secretState: route('secretState', { query: StateQuery, response: StateResponse }),
  secretRejoin: route('secretRejoin', { body: RejoinBody, response: RejoinResponse }),
  secretSend: route('secretSend', { body: SecretSendBody, response: SecretSendResponse }),
  secretBackup: route('secretBackup', { response: BackupInfoResponse }),
  secretBackupKey: route('secretBackupKey', { body: BackupKeyBody, response: BackupInfoResponse }),
  secretBackupUpload: route('secretBackupUpload', { body: BackupChunkBody, response: BackupChunkResponse }),
  secretBackupChunks: route('secretBackupChunks', { query: BackupChunksQuery, response: BackupChunksResponse }),
  secretBackupDelete: route('secretBackupDelete', { response: Ok }),
  secretIdentities: route('secretIdentities', { query: IdentitiesQuery, response: IdentitiesResponse }),
  secretSetIdentity: route('secretSetIdentity', { body: SetIdentityBody, response: IdentityResponse }),
  secretApprovalRequest: route('secretApprovalRequest', { body: ApprovalRequestBody, response: ApprovalResponse }),
  secretApprovals: route('secretApprovals', { response: ApprovalsResponse }),
  secretApproval: route('secretApproval', { params: ApprovalParams, response: ApprovalResponse }),
  secretApprovalDecline: route('secretApprovalDecline', { params: ApprovalParams, response: ApprovalResponse }),
  secretApprovalAnswer: route('secretApprovalAnswer', {
    params: ApprovalParams,
    body: ApprovalAnswerBody,
    response: ApprovalResponse,
  }),
  imports: route('imports', { response: ImportJobsResponse }),
  importJob: route('importJob', { params: ImportParams, response: ImportJobResponse }),
  importChoose: route('importChoose', { params: ImportParams, body: ImportChooseBody, response: ImportJobResponse }),
  importStart: route('importStart', { params: ImportParams, body: ImportStartBody, response: ImportJobResponse }),
  importCancel: route('importCancel', { params: ImportParams, response: ImportJobResponse }),
  importSecretBatch: route('importSecretBatch', { body: SecretImportBatchBody, response: SecretImportBatchResponse }),
} as const satisfies { [K in RouteName]: Routes[K] & RouteSchemas };

export type Api = typeof api;
export type { RouteName };

type Infer<T> = T extends z.ZodType ? z.input<T> : undefined;
export type BodyOf<K extends RouteName> = Api[K] extends { body: infer B } ? Infer<B> : undefined;
export type QueryOf<K extends RouteName> = Api[K] extends { query: infer Q } ? Infer<Q> : undefined;
export type ResponseOf<K extends RouteName> = z.output<Api[K]['response']>;
