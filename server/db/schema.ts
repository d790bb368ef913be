// Table types for Kysely. Timestamps are ISO-8601 strings and booleans are 0/1 integers so one schema
// and one set of queries run on both SQLite and PostgreSQL.
import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  username_lower: string;
  display_name: string;
  password_hash: string;
  email: string | null;
  email_lower: string | null;
  avatar_url: string | null;
  /** The status the user chose (ONLINE, AWAY, DND, OFFLINE = invisible). Presence is derived from it. */
  status: string;
  last_seen_at: string | null;
  eblid: string;
  bio: string | null;
  created_at: string;
  /** When the account was deleted (migration 010); null for a live one. */
  deleted_at: string | null;
  /** 'admin' or 'member' (migration 018): administrators see «Администрирование». */
  role: string;
  /** When an administrator deactivated the account (migration 018); null while it may sign in. */
  deactivated_at: string | null;
  /** «Кто может мне писать» (migration 025): 'everyone', 'groups' or 'friends'. */
  message_privacy: Generated<string>;
  /** One's own status (migration 046): '' when unset; both empty means none. */
  custom_status_emoji: Generated<string>;
  custom_status_text: Generated<string>;
  /** When the scheduler clears it (ISO); null for «Не сбрасывать» or no status. */
  custom_status_expires_at: string | null;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** One sign-in throttle counter (migration 024): a (username, address) pair, an address, or the whole server. */
export interface TwoFactorTable {
  user_id: string;
  /** The authenticator's base32 secret once confirmed with a code; null while off. */
  secret: string | null;
  /** A secret shown as a QR code, waiting for its first code. */
  pending_secret: string | null;
  enabled_at: string | null;
  /** The last 30-second step a code was accepted for: that code and earlier ones are refused. */
  last_step: number | string | null;
}

export interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 (base64url) of the normalised code. */
  code_hash: string;
  used_at: string | null;
}

export interface SignInThrottleTable {
  key: string;
  /** The pair's username; null on the other counters. */
  username_lower: string | null;
  failures: number;
  /** Password checks holding a slot, not yet answered. */
  pending: number;
  window_started_at: string;
  locked_until: string | null;
}

export interface ContactsTable {
  id: string;
  requester_id: string;
  addressee_id: string;
  /** Sorted pair of user ids: at most one relation per pair, whichever side asked. */
  pair_key: string;
  status: 'PENDING' | 'ACCEPTED';
  created_at: string;
  updated_at: string;
}

export interface ConversationsTable {
  id: string;
  title: string | null;
  is_group: number;
  /** Sorted pair key for direct conversations (unique), null for groups. */
  direct_key: string | null;
  created_by: string;
  created_at: string;
  /** A group's picture (migrations/013_group_roles.ts). */
  avatar_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for a secret chat (migrations/019_secret_chats.ts): its messages are ENCRYPTED; never changes. */
  secret: Generated<number>;
  /** A secret chat's MLS epoch: a commit made in it moves it on by one (server/secret/). */
  secret_epoch: Generated<number>;
  /** 1 for an open group (migrations/026_directory_open_groups.ts): anyone may join it from the directory. */
  open: Generated<number>;
  /** A group's «История для новых участников»: 1 «Видна», 0 «Скрыта» (migrations/027_group_history.ts). */
  history_visible: Generated<number>;
  /** A group's «Кто впускает гостей»: 1 only owner and admins, 0 any member (migrations/037_guest_links.ts). */
  guests_admins_only: Generated<number>;
  /** 1 when the group's owner or admins turned threads off (migrations/028_threads.ts). */
  threads_off: Generated<number>;
  /** 1 for a person's «Избранное», their chat with themselves (migrations/030_saved_scheduled.ts). */
  saved: Generated<number>;
}

export interface ConversationMembersTable {
  conversation_id: string;
  user_id: string;
  joined_at: string;
  /** The seq of the newest message the member has read (0: none); see migrations/006_read_cursors.ts. */
  last_read_seq: Generated<number>;
  /** OWNER | ADMIN | MEMBER (migrations/013_group_roles.ts). */
  role: string;
  /** The member sees the messages after this seq only (the newest one when they were added; 0 for founders). */
  visible_from_seq: Generated<number>;
  /** The group's newest message when they joined (0: founders, older memberships); receipts start after it (027). */
  joined_seq: Generated<number>;
  /** Chat settings (migrations/015_chat_settings.ts): ISO time or FOREVER; pin time; archive and hide marks. */
  muted_until: ColumnType<string | null, string | null | undefined, string | null>;
  pinned_at: ColumnType<string | null, string | null | undefined, string | null>;
  archived_seq: ColumnType<number | null, number | null | undefined, number | null>;
  hidden_seq: ColumnType<number | null, number | null | undefined, number | null>;
  /** «Пометить как непрочитанное» (migrations/044_marked_unread.ts): 1 until the chat is opened. */
  marked_unread: Generated<number>;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  sender_id: string;
  type: string;
  content: string;
  reply_to_id: string | null;
  client_message_id: string | null;
  created_at: string;
  /** Monotonic order within the database; ties on created_at are broken by it. */
  seq: Generated<number>;
  deleted_at: string | null;
  /** Set when the sender changed the text (server/db/migrations/004_message_edits_reactions.ts). */
  edited_at: string | null;
  /** The message's reactions as JSON of the contract's Reaction[], null when none (migrations/004_…). */
  reactions: ColumnType<string | null, string | null | undefined, string | null>;
  /** SYSTEM entries: the contract's SystemInfo as JSON (server/conversations/system-entries.ts). */
  system_info: ColumnType<string | null, string | null | undefined, string | null>;
  /** A forwarded copy: the first author and their name then (migrations/017_message_actions.ts). */
  forwarded_from_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  forwarded_from_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The mentioned members' ids as a JSON array, null when none (message_mentions indexes them per user). */
  mentions: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for a secret chat's edit or reaction (an ENCRYPTED message that is no news), else null (migrations/020_…). */
  control: ColumnType<number | null, number | null | undefined, number | null>;
  /** A thread reply: the root message it answers in its thread (migrations/028_threads.ts), else null. */
  thread_root_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A reminder in «Избранное»: JSON {conversationId, messageId} of the message it recalls (migrations/030_…). */
  reminder_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** An imported message (migrations/036_history_import.ts): the export's identity and this message's id in it. */
  import_key: ColumnType<string | null, string | null | undefined, string | null>;
  import_source_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The import job that stored it (a cancelled job removes what it stored). */
  import_job_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The export's name of an author not matched to anyone here (the message's sender is then the importer). */
  imported_author: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'telegram' | 'whatsapp' for an imported message. */
  imported_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** The text's formatting: JSON of the contract's checked ranges, null when plain (migrations/042_…). */
  entities: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One history import (migrations/036_history_import.ts, server/imports/). */
export interface ImportJobsTable {
  id: string;
  user_id: string;
  status: string;
  conversation_id: string | null;
  new_group: number;
  source: string | null;
  chat_name: string | null;
  chats: string | null;
  chat_id: string | null;
  authors: string | null;
  mapping: string | null;
  title: string | null;
  total: ColumnType<number, number | undefined, number>;
  done: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  error: string | null;
  file_hash: string | null;
  file_size: ColumnType<number, number | undefined, number>;
  seq_top: number | null;
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ImportSeqFloorTable {
  id: number;
  floor: number;
}

/** «Удалить у меня» / «Скрыть у себя»: a message one person no longer sees. */
export interface HiddenMessagesTable {
  user_id: string;
  message_id: string;
  conversation_id: string;
  hidden_at: string;
}

export interface MessagePinsTable {
  conversation_id: string;
  message_id: string;
  pinned_by: string;
  pinned_at: string;
}

export interface MessageMentionsTable {
  message_id: string;
  user_id: string;
  conversation_id: string;
}

/** A text an edit replaced (migrations/045_message_edits.ts): «История изменений». */
export interface MessageEditsTable {
  message_id: string;
  content: string;
  entities: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the edit replaced this text. */
  edited_at: string;
}

/** When a member's read cursor reached a seq (for «Информация»). */
export interface ReadMarksTable {
  conversation_id: string;
  user_id: string;
  seq: ColumnType<number, number, number>;
  read_at: string;
}

export interface ReactionsTable {
  message_id: string;
  user_id: string;
  emoji: string;
  created_at: string;
}

export interface UploadsTable {
  id: string;
  owner_id: string;
  storage_key: string;
  url: string;
  original_name: string;
  mime: string;
  size: number;
  kind: string;
  width: number | null;
  height: number | null;
  created_at: string;
  /** A secret chat's encrypted attachment (kind SECRET): only its members read it back. */
  conversation_id: string | null;
}

export interface MessageAttachmentsTable {
  message_id: string;
  position: number;
  upload_id: string;
}

export interface ReceiptsTable {
  message_id: string;
  user_id: string;
  conversation_id: string;
  status: string;
  created_at: string;
}

export interface VoiceNotesTable {
  message_id: string;
  duration_ms: number;
  /** Peaks as a comma-separated list of integers. */
  waveform: string;
}

export interface CallsTable {
  id: string;
  conversation_id: string;
  caller_id: string;
  video: number;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  /** answered | declined | missed | cancelled, set once when the call is logged. */
  outcome: string | null;
  duration_sec: number | null;
  /** The CALL message written for it. */
  message_id: string | null;
  /** 1 for a group's call (migrations/043_group_calls.ts): open while anyone is in it. */
  group_call: Generated<number>;
  /** A group call's participants, comma-separated in joining order. */
  participant_ids: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * Who joined a group's call (migrations/043_group_calls.ts), from which socket; left_at null: in it now; gone_at:
 * that socket's connection died.
 */
export interface GroupCallParticipantsTable {
  call_id: string;
  user_id: string;
  socket_id: string;
  joined_at: string;
  left_at: string | null;
  gone_at: string | null;
  /** When they raised their hand (migration 047); null: down. */
  hand_at: string | null;
  /** Their connection's participant sid in the call's media room, from LiveKit's webhooks (migration 051). */
  media_sid: string | null;
}

/** A sign-in as «Устройства» lists it (migration 009): the refresh-token family, its browser and activity. */
export interface PasskeysTable {
  id: string;
  /** The credential id (base64url) the authenticator gave. */
  credential_id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter last reported (0 for authenticators that keep none). */
  counter: number | string;
  /** A JSON array of the transports the browser reported. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebauthnChallengesTable {
  /** base64url, as the browser echoes it in clientDataJSON. */
  challenge: string;
  purpose: 'register' | 'signIn' | 'secondFactor';
  /** The account a registration or second step is for; null for a sign-in without a username. */
  user_id: string | null;
  expires_at: string;
}

export interface SignInsTable {
  /** The refresh-token family: the `sid` of its access tokens. */
  id: string;
  user_id: string;
  browser: string | null;
  os: string | null;
  created_at: string;
  /** The sign-in, then its latest refresh. */
  last_active_at: string;
  /** The passkey that signed it in, if one did. */
  passkey_id: string | null;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  /** The sign-in (refresh-token family) that subscribed: signing out deletes the row. */
  session_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** 1: notifications show the message text; 0: only that a message came. */
  show_text: number;
  created_at: string;
}

/** An archive of «Экспорт данных» (migration 011); its ZIP is stored under the row's id. */
export interface ExportsTable {
  id: string;
  user_id: string;
  /** building | ready | failed. */
  status: string;
  /** 0 to 1. */
  progress: number;
  size: number | null;
  created_at: string;
  /** Moved by the build as it goes (a building row left unmoved belonged to a process that died). */
  updated_at: string;
  expires_at: string;
}

/** Chat folders (migrations/050_chat_folders.ts). Rules are 1/0. */
export interface ChatFoldersTable {
  id: string;
  user_id: string;
  name: string;
  position: number;
  rule_direct: number;
  rule_groups: number;
  rule_unread: number;
  rule_muted: number;
  created_at: string;
}

/** The chats a folder names: excluded 0 always in it, 1 never in it. */
export interface ChatFolderChatsTable {
  folder_id: string;
  conversation_id: string;
  excluded: number;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}

export interface GroupInvitesTable {
  code: string;
  conversation_id: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: Generated<number>;
  revoked_at: string | null;
}

/** A call room's guest links (migrations/037_guest_links.ts); `conversation_id` is null for a named room. */
export interface CallGuestLinksTable {
  code: string;
  room: string;
  conversation_id: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  rung_at: string | null;
  public_key: string | null;
}

/** One knock at a guest link: waiting, admitted, denied, removed or gone (the link died). */
export interface CallGuestsTable {
  id: string;
  link_code: string;
  name: string;
  secret_hash: string;
  state: string;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  public_key: string | null;
}

/** The server's own settings (migration 018): registration mode, members' invites, retention. */
export interface ServerSettingsTable {
  key: string;
  value: string;
}

/** Registration invite codes (migration 018); `created_by` is null for codes made from the shell. */
export interface RegistrationInvitesTable {
  code: string;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: Generated<number>;
  note: string | null;
  revoked_at: string | null;
}

/** One-time password-reset links an administrator hands over (migration 018); only the token's hash is kept. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** «Пожаловаться» (migration 018): on a person, or on a message with the reporter's copy of it and around it. */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  target_user_id: string;
  message_id: string | null;
  conversation_id: string | null;
  message_text: string | null;
  /** JSON: the messages around the reported one as the reporter saw them. */
  context: string | null;
  reason: string;
  comment: string | null;
  created_at: string;
  status: Generated<string>;
  resolved_by: string | null;
  resolved_at: string | null;
  notice_seen_at: string | null;
}

/** A browser sign-in taking part in secret chats (migrations/019_secret_chats.ts). */
export interface SecretDevicesTable {
  id: string;
  user_id: string;
  /** The sign-in (refresh-token family) it is; unique. */
  session_id: string;
  created_at: string;
  revoked_at: string | null;
  /** base64 of its Ed25519 signature key and of that key's signature by its person's identity key (033). */
  signature_key: string | null;
  identity_signature: string | null;
}

/** A person's identity key of secret chats (migrations/033_secret_identity.ts). */
export interface SecretIdentitiesTable {
  user_id: string;
  /** base64 of the Ed25519 public key. */
  public_key: string;
  /** 1, and one more at each reset. */
  version: number;
  created_at: string;
  reset_at: string | null;
}

/** A new device asking an old one of its person for the identity key (033). */
export interface SecretApprovalsTable {
  id: string;
  user_id: string;
  session_id: string;
  device_key: string;
  exchange_key: string;
  created_at: string;
  signature: string | null;
  /** The identity key sealed to `exchange_key`: opaque here. */
  sealed: string | null;
  answered_at: string | null;
}

export interface SecretKeyPackagesTable {
  id: Generated<number>;
  device_id: string;
  user_id: string;
  /** base64 of an MLS KeyPackage, never read by the server. */
  body: string;
  created_at: string;
  /** 1 for the device's last-resort package: handed out only when no other is left, and not deleted then. */
  last_resort: Generated<number>;
}

/** The SHA-256 (hex) of every key package a device uploaded, kept after the package is handed out. */
export interface SecretKeyPackageDigestsTable {
  digest: string;
  device_id: string;
  created_at: string;
}

/** A secret chat's ordered log; `id` is its seq. */
export interface SecretLogTable {
  id: Generated<number>;
  conversation_id: string;
  kind: 'commit' | 'welcome';
  epoch: number;
  device_id: string;
  body: string;
  /** JSON arrays of device ids. */
  added: string;
  removed: string;
  targets: string;
  created_at: string;
}

export interface SecretGroupDevicesTable {
  conversation_id: string;
  device_id: string;
  user_id: string;
  joined_epoch: number;
  /** The seq of the welcome that brought it in (it reads commits after it). */
  joined_seq: number;
  /** The seq of the commit that removed it; null while it is in the group. */
  left_seq: number | null;
  /** When it asked to be added again (a commit it could not apply), until a commit re-adds it (migration 035). */
  rejoin_at: string | null;
}

/** A person's recovery key (migrations/022_secret_backup.ts): how to derive it, and its check value. */
export interface SecretBackupsTable {
  user_id: string;
  version: number;
  /** base64; PBKDF2's salt and iteration count. */
  salt: string;
  iterations: number;
  /** base64 of a fixed text encrypted with the key: a wrong phrase fails to open it. */
  check_value: string;
  /** The chunks' total size in base64 characters. */
  size: number;
  created_at: string;
}

/** One encrypted chunk of a person's secret-chat history, opaque to the server. */
export interface SecretBackupChunksTable {
  id: Generated<number>;
  user_id: string;
  version: number;
  conversation_id: string | null;
  body: string;
  created_at: string;
}

/** Who follows a thread and how far they read it (migrations/028_threads.ts). */
export interface ThreadFollowsTable {
  root_id: string;
  user_id: string;
  conversation_id: string;
  /** 1 following, 0 unfollowed. */
  following: number;
  /** The seq of the newest reply the follower has read. */
  read_seq: Generated<number>;
}

/** What the server fetched for a link (migrations/029_link_previews.ts), kept 24 h. */
export interface LinkPreviewsTable {
  url: string;
  /** 'ready' or 'failed'. */
  status: string;
  site_name: string | null;
  title: string | null;
  description: string | null;
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
  fetched_at: string;
}

/** The link whose card a message shows; the sender's «Убрать предпросмотр» deletes the row. */
export interface MessagePreviewsTable {
  message_id: string;
  url: string;
}

/** A POLL message's poll (migrations/031_polls.ts); option ids are the indexes of `options`. */
export interface PollsTable {
  message_id: string;
  conversation_id: string;
  /** JSON array of the options' texts. */
  options: string;
  multiple: number;
  anonymous: number;
  /** A quiz's right option; null for a plain poll. */
  correct_option: number | null;
  explanation: string | null;
  closed_at: string | null;
  version: Generated<number>;
}

/** One voter's ballot in a poll: the row a re-vote locks (migrations/031_polls.ts). */
export interface PollBallotsTable {
  message_id: string;
  user_id: string;
  voted_at: string;
}

/** One chosen option of one voter. */
export interface PollVotesTable {
  message_id: string;
  user_id: string;
  option: number;
}

/** Something the server sends later (migrations/030_saved_scheduled.ts): a message, or a reminder. */
export interface ScheduledMessagesTable {
  id: string;
  /** 'message' into conversation_id, or 'reminder' into the user's «Избранное». */
  kind: string;
  user_id: string;
  conversation_id: string;
  content: string;
  /** A reminder's message. */
  source_message_id: string | null;
  /** ISO time. */
  send_at: string;
  /** pending | sending | sent | failed (a deleted one is gone). */
  status: string;
  /** Why a failed one was not sent, in Russian. */
  failure: string | null;
  /** The message it became. */
  message_id: string | null;
  /** When a process took it for sending (status 'sending'). */
  claimed_at: string | null;
  created_at: string;
}

/** One backup run (server/backups): scheduled (`slot` set) or started by hand. */
export interface BackupRunsTable {
  id: string;
  /** ISO time of the scheduled moment the run is for; unique, so one process takes it. */
  slot: string | null;
  started_at: string;
  finished_at: string | null;
  /** running | ok | failed */
  status: string;
  /** disk | s3 */
  location: string;
  /** The file's path, or the object's key in the bucket. */
  target: string;
  size_bytes: number | string | null;
  /** Why it failed, in Russian. */
  failure: string | null;
}

/** Which account a person of the organisation's provider signs into (migrations/039_oidc_links.ts). */
export interface OidcLinksTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: string;
}

export interface DB {
  backup_runs: BackupRunsTable;
  oidc_links: OidcLinksTable;
  import_jobs: ImportJobsTable;
  import_seq_floor: ImportSeqFloorTable;
  scheduled_messages: ScheduledMessagesTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  sign_in_throttle: SignInThrottleTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  contacts: ContactsTable;
  conversations: ConversationsTable;
  conversation_members: ConversationMembersTable;
  blocks: BlocksTable;
  chat_folders: ChatFoldersTable;
  chat_folder_chats: ChatFolderChatsTable;
  group_invites: GroupInvitesTable;
  call_guest_links: CallGuestLinksTable;
  call_guests: CallGuestsTable;
  messages: MessagesTable;
  hidden_messages: HiddenMessagesTable;
  message_pins: MessagePinsTable;
  message_mentions: MessageMentionsTable;
  thread_follows: ThreadFollowsTable;
  link_previews: LinkPreviewsTable;
  message_previews: MessagePreviewsTable;
  polls: PollsTable;
  poll_ballots: PollBallotsTable;
  poll_votes: PollVotesTable;
  read_marks: ReadMarksTable;
  message_edits: MessageEditsTable;
  uploads: UploadsTable;
  message_attachments: MessageAttachmentsTable;
  receipts: ReceiptsTable;
  reactions: ReactionsTable;
  voice_notes: VoiceNotesTable;
  calls: CallsTable;
  group_call_participants: GroupCallParticipantsTable;
  push_subscriptions: PushSubscriptionsTable;
  sign_ins: SignInsTable;
  exports: ExportsTable;
  server_settings: ServerSettingsTable;
  registration_invites: RegistrationInvitesTable;
  password_resets: PasswordResetsTable;
  reports: ReportsTable;
  secret_devices: SecretDevicesTable;
  secret_identities: SecretIdentitiesTable;
  secret_approvals: SecretApprovalsTable;
  secret_key_packages: SecretKeyPackagesTable;
  secret_key_package_digests: SecretKeyPackageDigestsTable;
  secret_log: SecretLogTable;
  secret_group_devices: SecretGroupDevicesTable;
  secret_backups: SecretBackupsTable;
  secret_backup_chunks: SecretBackupChunksTable;
}
