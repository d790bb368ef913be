// Small hand-written shape checks, for data the client reads back from its own storage (the stored session, the
// outbox), which a hand edit, an older format or a broken write can corrupt. The client loads no zod (bench/client/bundle.ts,
// bundle budget): these check types and required fields, not the server's formats (id charset, EBLID digits),
// which only the server enforces. Each field list is typed against the contract's type, so a field added there
// fails to compile here until it is checked.
import type { Attachment, User } from './entities';

export type Check = (x: unknown) => boolean;

export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
export const isString: Check = (x) => typeof x === 'string';
export const isBoolean: Check = (x) => typeof x === 'boolean';
export const isNumber: Check = (x) => typeof x === 'number' && Number.isFinite(x);
export const isInteger: Check = (x) => Number.isInteger(x);
export const optional =
  (check: Check): Check =>
  (x) =>
    x === undefined || check(x);
export const nullable =
  (check: Check): Check =>
  (x) =>
    x === null || check(x);
export const oneOf =
  (...values: readonly unknown[]): Check =>
  (x) =>
    values.includes(x);
export const arrayOf =
  (check: Check): Check =>
  (x) =>
    Array.isArray(x) && x.every(check);

/** An object whose every listed field passes its check (other fields are let through). */
export const shape =
  (fields: Record<string, Check>): Check =>
  (x) =>
    isRecord(x) && Object.entries(fields).every(([key, check]) => check(x[key]));

export const userFields = {
  id: isString,
  username: isString,
  displayName: isString,
  avatarUrl: nullable(isString),
  status: oneOf('ONLINE', 'AWAY', 'DND', 'OFFLINE'),
  lastSeenAt: nullable(isString),
  eblid: isString,
  bio: nullable(isString),
  // A session stored before it existed has none.
  customStatus: optional(nullable(shape({ emoji: isString, text: isString, expiresAt: nullable(isString) }))),
  email: nullable(isString),
  deactivated: optional(isBoolean),
  deleted: optional(isBoolean),
  // A session stored before roles existed has none: it is a member's until /status/me answers.
  role: optional(oneOf('admin', 'member')),
  // The same for «Кто может мне писать».
  messagePrivacy: optional(oneOf('everyone', 'groups', 'friends')),
} satisfies Record<keyof User, Check>;
export const isUser = shape(userFields) as (x: unknown) => x is User;

export const attachmentFields = {
  url: isString,
  type: oneOf('IMAGE', 'FILE', 'AUDIO'),
  name: nullable(isString),
  size: nullable(isInteger),
  width: nullable(isInteger),
  height: nullable(isInteger),
} satisfies Record<keyof Attachment, Check>;
export const isAttachment = shape(attachmentFields) as (x: unknown) => x is Attachment;
