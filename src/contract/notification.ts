// What a system notification about a message or a call says, built the same way by the page (tab open but hidden),
// by the service worker (a Web Push while the tab is closed, src/sw/service-worker.ts) and by the server (the push
// payload, server/push/). Plain TypeScript, no zod: the service worker bundles it.
import type { MessageType } from './entities';
import { pollPreview } from './poll';

/** Web Push and notification limits (server/push/, src/sw/service-worker.ts). */
export const PUSH = {
  /** At most this many subscriptions (browsers) per user; the oldest goes when another subscribes. */
  subscriptionsPerUser: 10,
  /** One push per conversation and device at most this often; the ones between are counted into the next. */
  coalesceMs: 10_000,
  /** A message push lives this long at the push service (the message is in the app anyway afterwards). */
  messageTtlSec: 24 * 3600,
  /** An incoming call is worth ringing for this long only. */
  callTtlSec: 30,
  /** A group call that started is worth announcing this long (most calls that matter are still on by then). */
  groupCallTtlSec: 600,
  /** Each request to a push service: time limit, and how much of its answer is read. */
  requestTimeoutMs: 10_000,
  responseBytesMax: 4096,
  endpointMax: 2048,
  /** Characters of the message text a notification shows. */
  previewChars: 120,
} as const;

/** What a push (or the page) asks the notification code to show. It never carries a token. */
export type NotificationPayload =
  | {
      kind: 'message';
      conversationId: string;
      /** The sender's name (direct) or «Sender — Group». */
      title: string;
      /** The text preview, «Фото», «Файл», or null when the user hid message text. */
      preview: string | null;
      /** Messages this payload stands for (coalesced pushes carry more than one). */
      count: number;
      icon: string | null;
    }
  | { kind: 'call'; conversationId: string; title: string; video: boolean; icon: string | null }
  /** A call started in a group too large to ring. `title`: «Starter — Group». */
  | { kind: 'groupCall'; conversationId: string; title: string; video: boolean; icon: string | null };

/** The kinds of notification there are. */
export const NOTIFICATION_KINDS = [
  'message',
  'call',
  'groupCall',
] as const satisfies readonly NotificationPayload['kind'][];

export const NOTIFICATION_TEXT = {
  photo: 'Фото',
  file: 'Файл',
  hidden: 'Новое сообщение',
  incomingCall: 'Входящий звонок',
  incomingVideoCall: 'Входящий видеозвонок',
  groupCall: 'Идёт групповой звонок',
  groupVideoCall: 'Идёт групповой видеозвонок',
} as const;

/** «Starter — Group»: the title of a group call's notification (and of a group's message). */
export const fromInGroup = (name: string, group: string) => (group ? `${name} — ${group}` : name);

/** «Фото», «Файл» or the first characters of the text. */
export function messagePreview(type: MessageType, content: string): string {
  if (type === 'IMAGE') return NOTIFICATION_TEXT.photo;
  if (type === 'FILE') return NOTIFICATION_TEXT.file;
  // A secret chat's message is ciphertext to the server: the notification says only that one came.
  if (type === 'ENCRYPTED') return NOTIFICATION_TEXT.hidden;
  const text = (type === 'POLL' ? pollPreview(content) : content).replace(/\s+/g, ' ').trim();
  return text.length > PUSH.previewChars ? `${text.slice(0, PUSH.previewChars - 1)}…` : text;
}

/** «1 новое сообщение», «3 новых сообщения», «5 новых сообщений», «21 новое сообщение». */
export function newMessagesPhrase(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} новое сообщение`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return `${n} новых сообщения`;
  return `${n} новых сообщений`;
}

/** The notification's body: the preview for one message, the count for several. */
export function messageBody(count: number, preview: string | null): string {
  if (count > 1) return newMessagesPhrase(count);
  return preview ?? NOTIFICATION_TEXT.hidden;
}

/** What a call's notification says: «Входящий звонок» ringing, «Идёт групповой звонок» for a large group's. */
export function callBody(payload: Extract<NotificationPayload, { kind: 'call' | 'groupCall' }>): string {
  if (payload.kind === 'groupCall')
    return payload.video ? NOTIFICATION_TEXT.groupVideoCall : NOTIFICATION_TEXT.groupCall;
  return payload.video ? NOTIFICATION_TEXT.incomingVideoCall : NOTIFICATION_TEXT.incomingCall;
}

/** One notification per conversation: its tag. A call has its own, so a message does not replace the ringing. */
export const notificationTag = (payload: Pick<NotificationPayload, 'kind' | 'conversationId'>) =>
  `${payload.kind === 'message' ? 'conv' : 'call'}:${payload.conversationId}`;

/** What the page hears from the service worker when a notification is clicked. */
export interface NotificationOpened {
  type: 'notification.opened';
  kind: NotificationPayload['kind'];
  conversationId: string;
}

/** The address a click opens when no tab of the app is left: the page reads it at start (src/machines/app/runtime.ts). */
export const OPEN_CONVERSATION_PARAM = 'conversation';
