// Running the server for others (docs/administration.md): registration modes and invite codes, one-time
// password-reset links, reports and the «Администрирование» section's routes (all under /api/admin/, each
// checking the caller's role on the server).
import { z } from 'zod';
import { Id, IsoDate, NUL_MESSAGE, noNul, Password, ServerRole } from './entities';

/** «Открытая», «По приглашениям», «Закрыта». */
export const RegistrationMode = z.enum(['open', 'invites', 'closed']);
export type RegistrationMode = z.infer<typeof RegistrationMode>;
/** `firstAccount`: nobody has registered yet, so the next account becomes the server's administrator. */
/**
 * What the sign-in page offers: the organisation's provider by name (null: none configured, src/contract/oidc.ts)
 * and whether passwords are taken (false: the administrator turned them off; administrators still use theirs).
 */
export const SignInOptions = z.object({ provider: z.string().nullable(), passwords: z.boolean() });
export type SignInOptions = z.infer<typeof SignInOptions>;
/** `signIn`: what the sign-in page offers. */
export const RegistrationInfoResponse = z.object({
  mode: RegistrationMode,
  firstAccount: z.boolean(),
  signIn: SignInOptions,
});
export type RegistrationInfo = z.infer<typeof RegistrationInfoResponse>;

/**
 * What any page may know of the server before sign-in: the largest upload (UPLOAD_LIMIT_MB), so a larger file is
 * refused before it is sent, and the https address people should open (PUBLIC_URL when it is https), named where a
 * feature needs a secure context (calls, voice, notifications).
 */
export const InstanceResponse = z.object({
  uploadLimitBytes: z.number().int().positive(),
  secureUrl: z.string().nullable(),
  /** «Каталог участников» is on: «Люди» and «Открытые группы» are there (docs/behaviour.md §10.25). */
  directory: z.boolean().optional(),
});
export type InstanceResponse = z.infer<typeof InstanceResponse>;

export const InviteCode = z
  .string()
  .trim()
  .min(1, 'Введите код приглашения')
  .max(64, 'Код приглашения — не длиннее 64 символов')
  .regex(/^[A-Za-z0-9_-]+$/, 'Неверный код приглашения');

/** A reset link's token (base64url, 256 bits); anything else is refused before a lookup. */
export const ResetToken = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'Ссылка для сброса пароля недействительна');
export const PasswordResetParams = z.strictObject({ token: ResetToken });
export const PasswordResetInfoResponse = z.object({
  username: z.string(),
  displayName: z.string(),
  expiresAt: IsoDate,
});
export const ResetPasswordBody = z.strictObject({ token: ResetToken, password: Password });

/** «Спам», «Оскорбления или травля», «Насилие или угрозы», «Незаконный контент», «Другое». */
export const ReportReason = z.enum(['spam', 'abuse', 'violence', 'illegal', 'other']);
export type ReportReason = z.infer<typeof ReportReason>;
export const REPORT_COMMENT_MAX = 500;
export const ReportBody = z
  .strictObject({
    messageId: Id.optional(),
    userId: Id.optional(),
    reason: ReportReason,
    comment: z
      .string()
      .trim()
      .max(REPORT_COMMENT_MAX, `Комментарий — не длиннее ${REPORT_COMMENT_MAX} символов`)
      .refine(noNul, NUL_MESSAGE)
      .optional(),
  })
  .refine((b) => Boolean(b.messageId) !== Boolean(b.userId), 'Укажите сообщение или пользователя');

/** What an administrator did about a report; the reporter is told in a notice. */
export const ReportOutcome = z.enum(['deleted', 'deactivated', 'dismissed']);
export type ReportOutcome = z.infer<typeof ReportOutcome>;
export const ReportNotice = z.object({
  id: Id,
  outcome: ReportOutcome,
  resolvedAt: IsoDate,
  /** Whom the report was about (their name when it was resolved). */
  targetName: z.string(),
  /** The start of the reported message's text, null for a report on a person. */
  excerpt: z.string().nullable(),
});
export type ReportNotice = z.infer<typeof ReportNotice>;
export const ReportNoticesResponse = z.object({ notices: z.array(ReportNotice) });
export const ReportNoticesSeenBody = z.strictObject({ ids: z.array(Id).min(1).max(100) });

export const AccountState = z.enum(['active', 'deactivated', 'deleted']);
export type AccountState = z.infer<typeof AccountState>;
export const AdminUser = z.object({
  id: Id,
  username: z.string(),
  displayName: z.string(),
  eblid: z.string(),
  avatarUrl: z.string().nullable(),
  role: ServerRole,
  state: AccountState,
  createdAt: IsoDate,
  lastSeenAt: IsoDate.nullable(),
  /** Live sign-ins (devices). */
  sessions: z.number().int(),
  /** Whether the account has a second factor (an authenticator app or a passkey). */
  secondFactor: z.boolean(),
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUsersQuery = z.strictObject({
  q: z.string().trim().max(64).refine(noNul, NUL_MESSAGE).optional(),
  cursor: z.string().max(200).optional(),
});
export const AdminUsersResponse = z.object({ users: z.array(AdminUser), nextCursor: z.string().nullable() });
export const AdminUserBody = z.strictObject({ userId: Id });
export const AdminRoleBody = z.strictObject({ userId: Id, role: ServerRole });
export const AdminUserResponse = z.object({ user: AdminUser });
/** A one-time link to hand over: `path` is relative to the app's origin (/reset/<token>), valid 24 hours. */
export const ResetLinkResponse = z.object({ path: z.string(), expiresAt: IsoDate });

/** The server's own backups (docs/administration.md «Резервные копии по расписанию»). */
export const BackupStatus = z.object({
  /** «каждый день в 03:30», or null when BACKUP_SCHEDULE=off. */
  schedule: z.string().nullable(),
  /** Where they go: disk (DATA_DIR/backups) or the S3 bucket; `place` names the directory or s3://bucket/backups/. */
  location: z.enum(['disk', 's3']),
  place: z.string(),
  /** The latest run, scheduled or not. */
  last: z
    .object({
      startedAt: IsoDate,
      finishedAt: IsoDate.nullable(),
      status: z.enum(['running', 'ok', 'failed']),
      /** The archive's size when it succeeded. */
      bytes: z.number().nullable(),
      /** The file's path or the object's key. */
      target: z.string(),
      /** Why it failed, in Russian. */
      failure: z.string().nullable(),
    })
    .nullable(),
  lastOkAt: IsoDate.nullable(),
  /** A failed backup, or none for 26 hours while a schedule is on: what the console warns of. */
  warning: z.string().nullable(),
});
export type BackupStatus = z.infer<typeof BackupStatus>;

export const AdminStatsResponse = z.object({
  users: z.object({ total: z.number(), active: z.number(), deactivated: z.number(), admins: z.number() }),
  messages: z.number(),
  uploads: z.number(),
  /** Bytes of the uploads as they were received. */
  storageBytes: z.number(),
  sockets: z.number(),
  calls: z.number(),
  /** Guests let into calls whose links still work (docs/behaviour.md §10.40). */
  guests: z.number(),
  /** The release (package.json `version`). */
  version: z.string(),
  /** The schema: the number of the latest migration applied («037»). */
  schema: z.string(),
  startedAt: IsoDate,
  database: z.enum(['sqlite', 'postgres']),
  storage: z.enum(['disk', 's3']),
  backup: BackupStatus,
});

export const RETENTION_DAYS_MAX = 36_500;
export const TwoFactorRequirement = z.enum(['nobody', 'admins', 'everyone'], {
  error: 'Неизвестное значение обязательной двухэтапной проверки',
});
export type TwoFactorRequirement = z.infer<typeof TwoFactorRequirement>;
export const ServerSettings = z.object({
  registration: RegistrationMode,
  /** Whether members (not only administrators) may create registration invites. */
  membersCanInvite: z.boolean(),
  /** «Хранить сообщения»: days a message is kept, null for ever. */
  retentionDays: z.number().int().nullable(),
  /** «Каталог участников»: members see each other and the open groups (off by default). */
  directory: z.boolean(),
  /** «Гостевые ссылки на звонки»: members may invite people without an account into calls (on by default). */
  guestLinks: z.boolean(),
  /**
   * «Вход по паролю»: off, members sign in only through the organisation's provider (administrators keep their
   * passwords). Takes effect only while a provider is configured (OIDC_ISSUER).
   */
  passwordSignIn: z.boolean(),
  /** «Двухэтапная проверка обязательна»: for nobody (the default), administrators only, or everyone. */
  twoFactorRequired: TwoFactorRequirement,
});
export type ServerSettings = z.infer<typeof ServerSettings>;
export const ServerSettingsResponse = z.object({ settings: ServerSettings });
export const ServerSettingsBody = z
  .strictObject({
    registration: RegistrationMode.optional(),
    membersCanInvite: z.boolean().optional(),
    retentionDays: z
      .number()
      .int('Срок хранения — целое число дней')
      .min(1, 'Срок хранения — не меньше одного дня')
      .max(RETENTION_DAYS_MAX, `Срок хранения — не больше ${RETENTION_DAYS_MAX} дней`)
      .nullable()
      .optional(),
    directory: z.boolean().optional(),
    guestLinks: z.boolean().optional(),
    passwordSignIn: z.boolean().optional(),
    twoFactorRequired: TwoFactorRequirement.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Нечего менять');

export const InviteState = z.enum(['active', 'expired', 'used', 'revoked']);
export const RegistrationInvite = z.object({
  code: z.string(),
  note: z.string().nullable(),
  createdAt: IsoDate,
  expiresAt: IsoDate.nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  state: InviteState,
  /** Who made it; null when it came from the shell. */
  createdBy: z.object({ id: Id, displayName: z.string() }).nullable(),
});
export type RegistrationInvite = z.infer<typeof RegistrationInvite>;
export const REGISTRATION_INVITE_NOTE_MAX = 100;
export const CreateRegistrationInviteBody = z.strictObject({
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .nullable()
    .optional(),
  maxUses: z.number().int().min(1, 'Не меньше одного использования').max(1000).nullable().optional(),
  note: z
    .string()
    .trim()
    .max(REGISTRATION_INVITE_NOTE_MAX, `Заметка — не длиннее ${REGISTRATION_INVITE_NOTE_MAX} символов`)
    .refine(noNul, NUL_MESSAGE)
    .optional(),
});
export const RegistrationInviteResponse = z.object({ invite: RegistrationInvite });
export const RegistrationInvitesResponse = z.object({
  invites: z.array(RegistrationInvite),
  /** Whether the caller may create invites (administrators always, members when allowed). */
  canCreate: z.boolean(),
});
export const RevokeRegistrationInviteBody = z.strictObject({ code: InviteCode });

export const ReportStatus = z.enum(['open', 'deleted', 'deactivated', 'dismissed']);
const ReportPerson = z.object({ id: Id, username: z.string(), displayName: z.string() });
export const AdminReport = z.object({
  id: Id,
  reason: ReportReason,
  comment: z.string().nullable(),
  createdAt: IsoDate,
  status: ReportStatus,
  reporter: ReportPerson,
  target: ReportPerson.extend({ deactivated: z.boolean() }),
  /** The reported message as the reporter saw it (kept even if it was deleted since). */
  message: z
    .object({ id: Id, conversationId: Id, text: z.string(), deleted: z.boolean(), createdAt: IsoDate })
    .nullable(),
  /** Up to a few messages before the reported one, oldest first, as the reporter saw them. */
  context: z.array(z.object({ authorName: z.string(), text: z.string(), createdAt: IsoDate })),
});
export type AdminReport = z.infer<typeof AdminReport>;
export const AdminReportsQuery = z.strictObject({ status: z.enum(['open', 'closed']).default('open') });
export const AdminReportsResponse = z.object({ reports: z.array(AdminReport) });
export const ResolveReportBody = z.strictObject({
  reportId: Id,
  action: z.enum(['delete', 'deactivate', 'dismiss']),
});
