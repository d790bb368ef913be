// Shows a message or call notification (a ringing call, or a call started in a group too large to ring) through the service worker's registration, one per conversation: a
// message notification already shown for the conversation is replaced by one that counts both
// («3 новых сообщения»). Used by the page (src/services/notifications/notifications.ts) and the service worker
// (src/sw/service-worker.ts) alike, so both say the same.
import { callBody, messageBody, type NotificationPayload, notificationTag } from '../../contract/notification';

/** What a shown notification keeps in its `data` (read back by the click handler and the next message). */
export interface NotificationData {
  kind: NotificationPayload['kind'];
  conversationId: string;
  count: number;
}

const BADGE = '/icons/icon-192.png';

// One at a time: two messages arriving together must not both read the count before either is shown.
let queue: Promise<unknown> = Promise.resolve();

export function presentNotification(
  registration: ServiceWorkerRegistration,
  payload: NotificationPayload,
): Promise<void> {
  const next = queue.then(() => show(registration, payload));
  queue = next.catch(() => undefined);
  return next;
}

async function show(registration: ServiceWorkerRegistration, payload: NotificationPayload): Promise<void> {
  const tag = notificationTag(payload);
  const icon = payload.icon ?? BADGE;
  if (payload.kind !== 'message') {
    const data: NotificationData = { kind: payload.kind, conversationId: payload.conversationId, count: 1 };
    await registration.showNotification(payload.title, {
      tag,
      body: callBody(payload),
      icon,
      badge: BADGE,
      // A ringing call waits for an answer; a large group's call is a notice like a message.
      requireInteraction: payload.kind === 'call',
      data,
    });
    return;
  }
  const shown = await registration.getNotifications({ tag });
  const before = shown.reduce((n, s) => n + (isData(s.data) ? s.data.count : 0), 0);
  const count = before + payload.count;
  const data: NotificationData = { kind: 'message', conversationId: payload.conversationId, count };
  await registration.showNotification(payload.title, {
    tag,
    body: messageBody(count, payload.preview),
    icon,
    badge: BADGE,
    // Replacing the notification of the conversation alerts again: it says something new.
    renotify: true,
    data,
  } as NotificationOptions);
}

export function isData(v: unknown): v is NotificationData {
  const d = v as NotificationData | null;
  return typeof d === 'object' && d !== null && typeof d.conversationId === 'string' && typeof d.count === 'number';
}
