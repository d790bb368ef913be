// The REST routes without their schemas: name → method, path (relative to /api), whether a bearer token is needed.
// The client calls routes from this table and so never loads zod; src/contract/api.ts adds the zod schemas to
// the same entries for the server (validation, reply shaping) and for the types both sides use.

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export interface RouteInfo {
  method: Method;
  path: string;
  auth: boolean;
}

export const routes = {
  health: { method: 'GET', path: '/health', auth: false },
  healthReady: { method: 'GET', path: '/health/ready', auth: false },
  register: { method: 'POST', path: '/auth/register', auth: false },
  login: { method: 'POST', path: '/auth/login', auth: false },
  refresh: { method: 'POST', path: '/auth/refresh', auth: false },
  loginSecondFactor: { method: 'POST', path: '/auth/login/second-factor', auth: false },
  twoFactor: { method: 'GET', path: '/auth/two-factor', auth: true },
  twoFactorBegin: { method: 'POST', path: '/auth/two-factor/begin', auth: true },
  twoFactorConfirm: { method: 'POST', path: '/auth/two-factor/confirm', auth: true },
  twoFactorDisable: { method: 'POST', path: '/auth/two-factor/disable', auth: true },
  recoveryCodes: { method: 'POST', path: '/auth/two-factor/recovery-codes', auth: true },
  passkeys: { method: 'GET', path: '/auth/passkeys', auth: true },
  passkeyRegisterOptions: { method: 'POST', path: '/auth/passkeys/register/options', auth: true },
  passkeyRegister: { method: 'POST', path: '/auth/passkeys/register', auth: true },
  passkeyRename: { method: 'PATCH', path: '/auth/passkeys/:id', auth: true },
  passkeyRemove: { method: 'POST', path: '/auth/passkeys/:id/remove', auth: true },
  passkeySignInOptions: { method: 'POST', path: '/auth/passkeys/sign-in/options', auth: false },
  passkeySignIn: { method: 'POST', path: '/auth/passkeys/sign-in', auth: false },
  logout: { method: 'POST', path: '/auth/logout', auth: false },
  sessions: { method: 'GET', path: '/auth/sessions', auth: true },
  endSession: { method: 'DELETE', path: '/auth/sessions/:id', auth: true },
  endOtherSessions: { method: 'POST', path: '/auth/sessions/end-others', auth: true },
  changePassword: { method: 'POST', path: '/auth/password', auth: true },
  deleteAccount: { method: 'POST', path: '/auth/account/delete', auth: true },
  startExport: { method: 'POST', path: '/export', auth: true },
  latestExport: { method: 'GET', path: '/export', auth: true },
  exportStatus: { method: 'GET', path: '/export/:id', auth: true },
  me: { method: 'GET', path: '/status/me', auth: true },
  patchMe: { method: 'PATCH', path: '/status/me', auth: true },
  contacts: { method: 'GET', path: '/contacts', auth: true },
  contactSearch: { method: 'GET', path: '/contacts/search', auth: true },
  contactAdd: { method: 'POST', path: '/contacts/add', auth: true },
  contactRespond: { method: 'POST', path: '/contacts/respond', auth: true },
  contactRemove: { method: 'POST', path: '/contacts/remove', auth: true },
  conversations: { method: 'GET', path: '/conversations', auth: true },
  createConversation: { method: 'POST', path: '/conversations', auth: true },
  conversationWith: { method: 'POST', path: '/conversations/with', auth: true },
  createInvite: { method: 'POST', path: '/conversations/invites', auth: true },
  groupInvites: { method: 'GET', path: '/conversations/:id/invites', auth: true },
  revokeInvite: { method: 'POST', path: '/conversations/invites/revoke', auth: true },
  invitePreview: { method: 'GET', path: '/invites/:code', auth: true },
  joinByInvite: { method: 'POST', path: '/invites/:code/join', auth: true },
  directoryUsers: { method: 'GET', path: '/directory/users', auth: true },
  directoryGroups: { method: 'GET', path: '/directory/groups', auth: true },
  joinOpenGroup: { method: 'POST', path: '/groups/:id/join', auth: true },
  chatSettings: { method: 'PATCH', path: '/conversations/:id/settings', auth: true },
  clearHistory: { method: 'POST', path: '/conversations/clear', auth: true },
  hideConversation: { method: 'POST', path: '/conversations/hide', auth: true },
  blockUser: { method: 'POST', path: '/users/block', auth: true },
  unblockUser: { method: 'POST', path: '/users/unblock', auth: true },
  blockedUsers: { method: 'GET', path: '/users/blocked', auth: true },
  addMembers: { method: 'POST', path: '/conversations/members/add', auth: true },
  removeMember: { method: 'POST', path: '/conversations/members/remove', auth: true },
  memberRole: { method: 'POST', path: '/conversations/members/role', auth: true },
  leaveConversation: { method: 'POST', path: '/conversations/leave', auth: true },
  updateConversation: { method: 'PATCH', path: '/conversations/:id', auth: true },
  groupHistory: { method: 'POST', path: '/conversations/history', auth: true },
  messages: { method: 'GET', path: '/conversations/:id/messages', auth: true },
  send: { method: 'POST', path: '/conversations/send', auth: true },
  deleteMessage: { method: 'POST', path: '/messages/delete', auth: true },
  deletedMessages: { method: 'GET', path: '/messages/deleted', auth: true },
  editMessage: { method: 'POST', path: '/messages/edit', auth: true },
  react: { method: 'POST', path: '/messages/react', auth: true },
  hideMessages: { method: 'POST', path: '/messages/hide', auth: true },
  forwardMessages: { method: 'POST', path: '/messages/forward', auth: true },
  pinMessage: { method: 'POST', path: '/messages/pin', auth: true },
  pins: { method: 'GET', path: '/conversations/:id/pins', auth: true },
  messageInfo: { method: 'GET', path: '/messages/:id/info', auth: true },
  removePreview: { method: 'POST', path: '/messages/preview/remove', auth: true },
  receipts: { method: 'POST', path: '/messages/receipts', auth: true },
  markRead: { method: 'POST', path: '/messages/mark-conversation-read', auth: true },
  livekitToken: { method: 'POST', path: '/livekit/token', auth: true },
  livekitUrl: { method: 'GET', path: '/livekit/url', auth: true },
  createGuestLink: { method: 'POST', path: '/guest-links', auth: true },
  guestLinks: { method: 'GET', path: '/guest-links', auth: true },
  revokeGuestLink: { method: 'POST', path: '/guest-links/revoke', auth: true },
  guestAdmission: { method: 'POST', path: '/guest-links/admission', auth: true },
  waitingGuests: { method: 'GET', path: '/guest-links/waiting', auth: true },
  guestLinkInfo: { method: 'GET', path: '/guest/:code', auth: false },
  guestKnock: { method: 'POST', path: '/guest/:code/knock', auth: false },
  guestToken: { method: 'POST', path: '/guest/knocks/:id/token', auth: false },
  guestLeave: { method: 'POST', path: '/guest/knocks/:id/leave', auth: false },
  callHistory: { method: 'GET', path: '/calls', auth: true },
  thread: { method: 'GET', path: '/threads/:id', auth: true },
  followThread: { method: 'POST', path: '/threads/follow', auth: true },
  readThread: { method: 'POST', path: '/threads/read', auth: true },
  followedThreads: { method: 'GET', path: '/threads', auth: true },
  threadsSetting: { method: 'POST', path: '/conversations/threads', auth: true },
  createPoll: { method: 'POST', path: '/polls', auth: true },
  votePoll: { method: 'POST', path: '/polls/vote', auth: true },
  retractVote: { method: 'POST', path: '/polls/retract', auth: true },
  closePoll: { method: 'POST', path: '/polls/close', auth: true },
  scheduled: { method: 'GET', path: '/conversations/:id/scheduled', auth: true },
  schedule: { method: 'POST', path: '/scheduled', auth: true },
  editScheduled: { method: 'PATCH', path: '/scheduled/:id', auth: true },
  sendScheduledNow: { method: 'POST', path: '/scheduled/:id/send', auth: true },
  deleteScheduled: { method: 'DELETE', path: '/scheduled/:id', auth: true },
  remind: { method: 'POST', path: '/reminders', auth: true },
  search: { method: 'GET', path: '/search', auth: true },
  pushKey: { method: 'GET', path: '/push/key', auth: true },
  pushSubscribe: { method: 'POST', path: '/push/subscribe', auth: true },
  pushUnsubscribe: { method: 'POST', path: '/push/unsubscribe', auth: true },
  registrationInfo: { method: 'GET', path: '/registration', auth: false },
  oidcComplete: { method: 'POST', path: '/auth/oidc/complete', auth: false },
  oidcCreate: { method: 'POST', path: '/auth/oidc/create', auth: false },
  oidcLink: { method: 'POST', path: '/auth/oidc/link', auth: false },
  signInMethods: { method: 'GET', path: '/auth/methods', auth: true },
  instance: { method: 'GET', path: '/instance', auth: false },
  passwordResetInfo: { method: 'GET', path: '/auth/reset/:token', auth: false },
  resetPassword: { method: 'POST', path: '/auth/reset', auth: false },
  report: { method: 'POST', path: '/reports', auth: true },
  reportNotices: { method: 'GET', path: '/reports/notices', auth: true },
  reportNoticesSeen: { method: 'POST', path: '/reports/notices/seen', auth: true },
  registrationInvites: { method: 'GET', path: '/registration/invites', auth: true },
  createRegistrationInvite: { method: 'POST', path: '/registration/invites', auth: true },
  revokeRegistrationInvite: { method: 'POST', path: '/registration/invites/revoke', auth: true },
  adminUsers: { method: 'GET', path: '/admin/users', auth: true },
  adminDeactivate: { method: 'POST', path: '/admin/users/deactivate', auth: true },
  adminReactivate: { method: 'POST', path: '/admin/users/reactivate', auth: true },
  adminEndSessions: { method: 'POST', path: '/admin/users/end-sessions', auth: true },
  adminResetLink: { method: 'POST', path: '/admin/users/reset-link', auth: true },
  adminResetSecondFactor: { method: 'POST', path: '/admin/users/reset-second-factor', auth: true },
  adminRole: { method: 'POST', path: '/admin/users/role', auth: true },
  adminStats: { method: 'GET', path: '/admin/stats', auth: true },
  adminSettings: { method: 'GET', path: '/admin/settings', auth: true },
  patchAdminSettings: { method: 'PATCH', path: '/admin/settings', auth: true },
  adminReports: { method: 'GET', path: '/admin/reports', auth: true },
  resolveReport: { method: 'POST', path: '/admin/reports/resolve', auth: true },
  secretRegisterDevice: { method: 'POST', path: '/secret/devices', auth: true },
  secretKeyPackages: { method: 'POST', path: '/secret/key-packages', auth: true },
  secretClaim: { method: 'POST', path: '/secret/key-packages/claim', auth: true },
  secretCreate: { method: 'POST', path: '/secret/conversations', auth: true },
  secretCommit: { method: 'POST', path: '/secret/commits', auth: true },
  secretLog: { method: 'GET', path: '/secret/conversations/:id/log', auth: true },
  secretState: { method: 'GET', path: '/secret/state', auth: true },
  secretRejoin: { method: 'POST', path: '/secret/rejoin', auth: true },
  secretSend: { method: 'POST', path: '/secret/send', auth: true },
  secretBackup: { method: 'GET', path: '/secret/backup', auth: true },
  secretBackupKey: { method: 'POST', path: '/secret/backup/key', auth: true },
  secretBackupUpload: { method: 'POST', path: '/secret/backup', auth: true },
  secretBackupChunks: { method: 'GET', path: '/secret/backup/chunks', auth: true },
  secretBackupDelete: { method: 'DELETE', path: '/secret/backup', auth: true },
  secretIdentities: { method: 'GET', path: '/secret/identities', auth: true },
  secretSetIdentity: { method: 'POST', path: '/secret/identity', auth: true },
  secretApprovalRequest: { method: 'POST', path: '/secret/approvals', auth: true },
  secretApprovals: { method: 'GET', path: '/secret/approvals', auth: true },
  secretApproval: { method: 'GET', path: '/secret/approvals/:id', auth: true },
  secretApprovalAnswer: { method: 'POST', path: '/secret/approvals/:id', auth: true },
  secretApprovalDecline: { method: 'POST', path: '/secret/approvals/:id/decline', auth: true },
  imports: { method: 'GET', path: '/imports', auth: true },
  importJob: { method: 'GET', path: '/imports/:id', auth: true },
  importChoose: { method: 'POST', path: '/imports/:id/chat', auth: true },
  importStart: { method: 'POST', path: '/imports/:id/start', auth: true },
  importCancel: { method: 'POST', path: '/imports/:id/cancel', auth: true },
  importSecretBatch: { method: 'POST', path: '/imports/secret-batch', auth: true },
} as const satisfies Record<string, RouteInfo>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/**
 * POST /api/upload is multipart/form-data (one file in the field `file`, bearer token), so it is not in the
 * JSON route table. Its answer is `UploadResponse` (src/contract/api.ts, `uploadRoute`).
 */
export const uploadEndpoint = { method: 'POST', path: '/upload', field: 'file' } as const;

/**
 * A secret chat's encrypted attachment: POST /api/secret/uploads?conversationId= takes the ciphertext itself
 * (application/octet-stream), GET /api/secret/uploads/:key gives it back to the chat's members (bearer token).
 * Raw bytes both ways, so not in the JSON route table; the schemas are `secretUploadRoute` (src/contract/api.ts).
 */
export const secretUploadEndpoint = { method: 'POST', path: '/secret/uploads', query: 'conversationId' } as const;
/**
 * History import: POST /api/imports?conversationId= takes the export itself (application/zip, streamed to disk) and
 * answers `ImportJobResponse` (src/contract/imports.ts); without conversationId the import makes a new group.
 */
export const importUploadEndpoint = { method: 'POST', path: '/imports', query: 'conversationId' } as const;
export const secretDownloadEndpoint = { method: 'GET', path: '/secret/uploads/:key' } as const;
/** An encrypted attachment's url as the server answers it; a device fetches (with its token) no other. */
export const SECRET_UPLOAD_URL = /^\/api\/secret\/uploads\/([0-9a-f]{32})$/;

/**
 * GET /api/export/:id/download answers the ZIP itself, so it is not in the JSON route table. It takes the bearer
 * token, or the short-lived signed `token` query that the export's status hands out as `downloadUrl` (a plain link
 * cannot send a header). Only the export's owner gets it: anyone else's answer is 404.
 */
export const exportDownloadEndpoint = { method: 'GET', path: '/export/:id/download', query: 'token' } as const;
