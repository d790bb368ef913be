// Business constants (docs/behaviour.md §9) and server-side limits the seed leaves open ("not shown").
/** Polls («Опрос», docs/behaviour.md §10.33 Polls): the question, the options and a quiz's explanation. */
export const POLL = {
  questionMax: 300,
  optionsMin: 2,
  optionsMax: 10,
  optionMax: 100,
  explanationMax: 200,
} as const;
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 32,
  displayNameMin: 2,
  displayNameMax: 64,
  passwordMin: 8,
  passwordMax: 256,
  bioMax: 500,
  avatarUrlMax: 2048,
  groupTitleMax: 100,
  /** Chats one person may pin at the top of the list. */
  pinnedMax: 5,
  groupParticipantsMax: 100,
  messageTextMax: 4000,
  attachmentsMax: 10,
  messagesPageDefault: 50,
  messagesPageMax: 200,
  receiptsBatchMax: 500,
  identifierMax: 254,
  roomNameMax: 128,
  socketFrameMaxBytes: 64 * 1024,
  /** Default upload limit (UPLOAD_LIMIT_MB overrides it on the server). */
  uploadDefaultBytes: 25 * 1024 * 1024,
  /** Message search (GET /api/search): the query's length and the page size. */
  searchQueryMax: 200,
  searchPageDefault: 20,
  searchPageMax: 50,
  /** The calls page's history: a page of calls, and the most one request may ask for. */
  callHistoryDefault: 50,
  callHistoryMax: 100,
  /** Deletions answered at once by GET /api/messages/deleted (more are asked for from `until`). */
  deletionsPageMax: 500,
  /** Messages one forward, hide or delete may name, and the chats one forward may reach. */
  messageBatchMax: 100,
  forwardTargetsMax: 20,
  /** Members one message may mention. */
  mentionsMax: 50,
  /** Pinned messages a conversation keeps (pinning one more unpins the oldest). */
  pinsMax: 100,
  /** The composer shows how many characters are left from this length on. */
  messageTextCounterFrom: 3800,
  /** Secret chats (docs/secret-chats.md): people in one, devices in its MLS group, and sizes in base64 characters. */
  secretMembersMax: 50,
  secretDevicesMax: 50,
  keyPackagesPerUpload: 20,
  /** Key packages a device keeps on the server; under keyPackagesLow it uploads more. */
  keyPackagesKeep: 10,
  keyPackagesLow: 4,
  /** A key package older than this is never handed out (the server prunes it): devices upload fresh ones. */
  keyPackageTtlDays: 30,
  keyPackageMaxChars: 8_192,
  /** A commit or welcome for 50 devices (a path of HPKE ciphertexts each) stays well under this. */
  mlsMessageMaxChars: 256 * 1024,
  /** 4,000 characters of Cyrillic text (8 KB of UTF-8) with its envelope, encrypted, in base64. */
  ciphertextMaxChars: 32 * 1024,
  /** A log page of commits and welcomes. */
  secretLogPage: 100,
} as const;

/**
 * Why a file over the server's upload limit is not sent (docs/behaviour.md §10.1): the same words from the client,
 * which refuses it before any upload, and from the server's 413. The limit is named in whole megabytes.
 */
export function fileTooLargeText(limitBytes: number): string {
  return `Файл больше ${Math.floor(limitBytes / (1024 * 1024)) || 1} МБ — такие файлы не отправляются`;
}

export const TIMINGS = {
  ringTimeoutMs: 25_000,
  typingIdleMs: 1_500,
  typingDotsMs: 500,
  receiptFlushMs: 250,
  conversationsRefetchMs: 20_000,
  pingIntervalMs: 15_000,
  successMessageMs: 2_200,
  /** Not in the seed: a read-receipt post that failed is tried again after this pause. */
  receiptRetryMs: 3_000,
  /**
   * Not in the seed: the server tells a sender that its messages were read at once, then gathers what more
   * readers report for the same conversation during this window into one frame per sender and reader.
   */
  receiptAnnounceMs: 250,
  /** An unanswered call is logged as missed this long after the invitation if nobody ended it (a closed tab). */
  callUnansweredLogMs: 25_000 + 10_000,
  /** Not in the seed: search waits this long after the last keystroke before asking the server. */
  searchDebounceMs: 250,
  /** Not in the seed: «Экспорт данных» asks for its archive's progress this often while it is being built. */
  exportPollMs: 1_000,
  /** Not in the seed: «Импорт истории» asks for its import's progress this often while it is analysed or runs. */
  importPollMs: 1_000,
} as const;

/** «Экспорт данных» (docs/accounts.md): how long an archive is kept and how long its signed download link works. */
export const EXPORT = { keepMs: 24 * 3600_000, linkMs: 10 * 60_000 } as const;

export const EBLID_SPACE = 10_000;

/** The quick reactions shown in the menu and under a message; the picker offers any other emoji. */
export const REACTION_EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;
export type ReactionSymbol = (typeof REACTION_EMOJI)[number];

/** Chats page layout (docs/behaviour.md §9): narrow breakpoint, wide-layout threshold of the message area, swipe. */
export const LAYOUT = {
  narrowMaxPx: 768,
  wideMinPx: 900,
  swipeMinPx: 50,
  /** A touch held this long without moving more than longPressSlopPx opens a message's menu. */
  longPressMs: 500,
  longPressSlopPx: 10,
} as const;

/**
 * Opening a conversation with more unread messages than one page pages back to the first unread one, up to this
 * many messages loaded (beyond, «Непрочитанные сообщения» sits on the oldest loaded one).
 */
export const UNREAD_REACH = 1000;

/** Removing or hiding a message waits this long for «Отменить» before the request goes out. */
export const UNDO = { windowMs: 5_000 } as const;

/** Drafts are written to the browser this long after the last keystroke (and at once when the page goes away). */
export const DRAFTS = { saveDelayMs: 400 } as const;

/** Lightbox zoom (docs/behaviour.md §9): 0.25 to 4, step 0.25. */
export const LIGHTBOX_ZOOM = { min: 0.25, max: 4, step: 0.25 } as const;

/**
 * Voice messages (docs/voice.md): at most 5 minutes, a waveform of at most 100
 * peaks 0..100. The server checks that the duration fits the file: its average bitrate must lie between
 * minBytesPerSec and maxBytesPerSec (plus headerSlackBytes for the container's headers).
 */
export const VOICE = {
  minDurationMs: 300,
  maxDurationMs: 5 * 60_000,
  waveformMax: 100,
  peakMax: 100,
  maxBytes: 3 * 1024 * 1024,
  /** 0.8 kbit/s: below any Opus or AAC stream, even of silence. */
  minBytesPerSec: 100,
  /** 256 kbit/s: above what the recorder asks for (VOICE.recordBitsPerSec). */
  maxBytesPerSec: 32_000,
  headerSlackBytes: 16 * 1024,
  recordBitsPerSec: 32_000,
  /** The recorder's level meter and elapsed-time tick. */
  levelTickMs: 100,
  /** Playback speeds the player cycles through. */
  rates: [1, 1.5, 2],
} as const;
/** Offline reading (src/services/session/offline-cache.ts): what the browser keeps per user. */
export const OFFLINE = { conversations: 20, messagesPerConversation: 100 } as const;

/**
 * «Отправить позже» and «Напомнить» (docs/behaviour.md §10.32): at most a year ahead; at most `pendingMax` waiting per
 * person; a server process looks for due items at least every `pollMs` (another process may have scheduled them) and
 * takes over one whose sender died after `leaseMs`.
 */
export const SCHEDULE = {
  maxAheadMs: 366 * 24 * 3600_000,
  pendingMax: 200,
  pollMs: 30_000,
  leaseMs: 60_000,
} as const;
