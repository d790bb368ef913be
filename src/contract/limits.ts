// Business constants (docs/behaviour.md §9) and server-side limits the seed leaves open ("not shown").
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
} as const;

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
} as const;

export const EBLID_SPACE = 10_000;

/** Chats page layout (docs/behaviour.md §9): narrow breakpoint, wide-layout threshold of the message area, swipe. */
export const LAYOUT = { narrowMaxPx: 768, wideMinPx: 900, swipeMinPx: 50 } as const;

/** Lightbox zoom (docs/behaviour.md §9): 0.25 to 4, step 0.25. */
export const LIGHTBOX_ZOOM = { min: 0.25, max: 4, step: 0.25 } as const;

/** Offline reading (src/services/offline-cache.ts): what the browser keeps per user. */
export const OFFLINE = { conversations: 20, messagesPerConversation: 100 } as const;
