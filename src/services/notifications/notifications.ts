// The browser side of notifications (the notifications actor's effects, provided by src/services/notifications/notifications.effects.ts and loaded
// on demand, apart from the first bundle): the permission, the Web Push subscription of the service worker,
// showing a notification, the clicks the worker reports, and the switches this device keeps per user.
import type { NotificationOpened, NotificationPayload } from '../../contract/notification';
import { callBody, OPEN_CONVERSATION_PARAM } from '../../contract/notification';
import type { ApiClient } from '../app/api';
import { insecurePage } from '../app/secure-context';
import { presentNotification } from './notification-present';

export type PermissionState = 'default' | 'granted' | 'denied';
export interface NotificationPrefs {
  enabled: boolean;
  showText: boolean;
}

const PREFS_KEY = (userId: string) => `beseda.notifications.${userId}`;
/** How long subscribing waits for the service worker to be active (it registers after load). */
const WORKER_WAIT_MS = 15_000;

const supported = () => typeof window !== 'undefined' && 'Notification' in window && window.isSecureContext;

export function loadPrefs(userId: string): NotificationPrefs {
  try {
    const raw = JSON.parse(localStorage.getItem(PREFS_KEY(userId)) ?? 'null') as Partial<NotificationPrefs> | null;
    return { enabled: raw?.enabled === true, showText: raw?.showText !== false };
  } catch {
    return { enabled: false, showText: true };
  }
}

export function savePrefs(userId: string, prefs: NotificationPrefs): void {
  try {
    localStorage.setItem(PREFS_KEY(userId), JSON.stringify(prefs));
  } catch {
    // storage disabled: the switches last this page view
  }
}

/** The permission and the stored switches; on a plain-http page (no secure context) where the https one is. */
export async function readEnvironment(userId: string, api: Pick<ApiClient, 'call'>) {
  const ok = supported();
  return {
    supported: ok,
    permission: (ok ? Notification.permission : 'denied') as PermissionState,
    insecure: await insecurePage(api),
    ...loadPrefs(userId),
  };
}

export async function requestPermission(): Promise<PermissionState> {
  return (await Notification.requestPermission()) as PermissionState;
}

/** The active service worker's registration, or null when there is none (development, an unsupported browser). */
async function registration(waitMs: number): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

const fromBase64Url = (s: string) => {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

const sameKey = (a: ArrayBuffer | null, b: Uint8Array) =>
  a !== null && new Uint8Array(a).every((v, i) => v === b[i]) && a.byteLength === b.length;

/** Subscribes this browser to Web Push with the server's VAPID key and tells the server (again, if it knew it). */
export async function subscribe(api: ApiClient, showText: boolean): Promise<void> {
  const reg = await registration(WORKER_WAIT_MS);
  if (!reg?.pushManager) throw new Error('no service worker for Web Push');
  const { publicKey } = await api.call('pushKey');
  const key = fromBase64Url(publicKey);
  let sub = await reg.pushManager.getSubscription();
  // Subscribed under another key (the server's keys were replaced): start again.
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = sub.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('incomplete push subscription');
  await api.call('pushSubscribe', {
    body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth }, showText },
  });
}

/** Ends this browser's push subscription without telling the server (signed out: it has dropped it already). */
export async function forgetBrowserSubscription(): Promise<void> {
  const reg = await registration(1_000);
  const sub = await reg?.pushManager?.getSubscription();
  await sub?.unsubscribe();
}

export async function unsubscribe(api: ApiClient): Promise<void> {
  const reg = await registration(1_000);
  const sub = await reg?.pushManager?.getSubscription();
  if (!sub) return;
  await api.call('pushUnsubscribe', { body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe();
}

/** Shows it through the service worker (one per conversation, counted), or directly without one. */
export async function present(payload: NotificationPayload): Promise<void> {
  const reg = await registration(2_000);
  if (reg) return presentNotification(reg, payload);
  const n = new Notification(payload.title, {
    body: payload.kind === 'message' ? (payload.preview ?? '') : callBody(payload),
    icon: payload.icon ?? undefined,
  });
  n.onclick = () => window.focus();
}

/** Calls `onOpened` for each notification click the service worker reports, and once for a tab opened by one. */
export function watchClicks(onOpened: (opened: NotificationOpened) => void): () => void {
  const url = new URL(window.location.href);
  const asked = url.searchParams.get(OPEN_CONVERSATION_PARAM);
  if (asked) {
    url.searchParams.delete(OPEN_CONVERSATION_PARAM);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    onOpened({ type: 'notification.opened', kind: 'message', conversationId: asked });
  }
  if (!('serviceWorker' in navigator)) return () => {};
  const listener = (e: MessageEvent) => {
    const d = e.data as NotificationOpened | null;
    if (d?.type === 'notification.opened' && typeof d.conversationId === 'string') onOpened(d);
  };
  navigator.serviceWorker.addEventListener('message', listener);
  return () => navigator.serviceWorker.removeEventListener('message', listener);
}
