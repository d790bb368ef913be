// The notifications actor's protocol (systemId 'notifications'): the settings page's switches, the messages the
// chats list counted as unread (heard from the chats actor's `chats.unread`), the browser's answers, and the sound
// it asks for. Peers and views import this module, never the machine file.
import type { Conversation, Message } from '../../../contract/entities';
import type { NotificationPayload } from '../../../contract/notification';
import type { MachineRef } from '../../shared/machine-ref';
import type { InsecurePage } from '../../shared/secure-context.protocol';
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';

export type PermissionState = 'default' | 'granted' | 'denied';

/** What the device remembers per user: the two switches of Настройки. */
export interface NotificationPrefs {
  enabled: boolean;
  showText: boolean;
}

/** The browser's state and the stored switches, read when a user signs in. */
export interface NotificationEnvironment extends NotificationPrefs {
  /** Notifications exist at all in this browser (a Notification API and a secure context). */
  supported: boolean;
  permission: PermissionState;
  /** Set when the page is not a secure context (plain http): notifications need the https address. */
  insecure?: InsecurePage | null;
}

export interface NotificationsContext extends NotificationPrefs {
  userId: string | null;
  permission: PermissionState;
  pageVisible: boolean;
  /** Set when notifications are unavailable because the page is not a secure context (plain http). */
  insecure: InsecurePage | null;
}

export const NOTIFICATION_NOTES = {
  denied: 'Уведомления запрещены в настройках браузера',
  unsupported: 'Этот браузер не показывает уведомления',
  pushFailed: 'Уведомления при закрытой вкладке недоступны: включены только пока вкладка открыта',
} as const;

export type NotificationsEvent =
  | { type: 'notifications.signedIn'; userId: string }
  | { type: 'notifications.signedOut' }
  | { type: 'notifications.visibility'; visible: boolean }
  /** The switch «Уведомления». */
  | { type: 'notifications.enable' }
  | { type: 'notifications.disable' }
  /** The switch «Показывать текст сообщений». */
  | { type: 'notifications.showText'; showText: boolean }
  /**
   * A message from someone else that the user has not seen (the chats list counted it as unread), with its
   * conversation when the list knows it: it chimes, and is shown while the tab is hidden.
   */
  | { type: 'notifications.message'; message: Message; conversation: Conversation | null }
  | { type: 'notifications.call'; payload: Extract<NotificationPayload, { kind: 'call' }> }
  /** A call started in a group too large to ring: it chimes, and is shown while the tab is hidden. */
  | { type: 'notifications.groupCall'; payload: Extract<NotificationPayload, { kind: 'groupCall' }> }
  /** A notification was clicked (the service worker told the page, or a new tab opened for it). */
  | { type: 'notifications.clicked'; kind: NotificationPayload['kind']; conversationId: string };

export type NotificationsEmitted =
  /** For the view: open the chats page (a notification of a message or a large group's call was clicked). */
  | { type: 'notifications.opened'; conversationId: string }
  /** An unseen message chimed (the notifier actor plays the sound). */
  | { type: 'sound.notify'; conversationId: string };

/** What the presenter actor is told to show. */
export type PresenterCommand = { type: 'present'; payload: NotificationPayload };
/** What the notifier actor is told: play the notification sound (the sound service's policy applies). */
export type NotifierCommand = { type: 'sound.notify' };
export type PrefsCommand = { type: 'save'; userId: string; prefs: NotificationPrefs };

export type NotificationsRef = MachineRef<NotificationsContext, NotificationsEvent, NotificationsEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/notifications/notifications.effects.ts).
 */
export interface NotificationsEffects {
  /** The browser's permission and this device's stored switches for the user. */
  readEnvironment: PromiseActorLogic<NotificationEnvironment, { userId: string }>;
  /** Notification.requestPermission(): the browser's answer. */
  requestPermission: PromiseActorLogic<PermissionState, unknown>;
  /** pushManager.subscribe + POST /api/push/subscribe. */
  subscribe: PromiseActorLogic<unknown, { showText: boolean }>;
  /** POST /api/push/unsubscribe + the browser's unsubscribe. */
  unsubscribe: PromiseActorLogic<unknown, unknown>;
  /**
   * At sign-out, the browser's own PushSubscription.unsubscribe() (the server has dropped the sign-in's rows
   * already): the next person at this browser starts with none.
   */
  forgetBrowserPush: PromiseActorLogic<unknown, unknown>;
  /** Shows what it is told through the service worker's registration. */
  presenter: CallbackActorLogic<PresenterCommand, unknown>;
  /** Plays the notification sound for each `sound.notify` it receives (the sound service's policy applies). */
  notifier: CallbackActorLogic<NotifierCommand, unknown>;
  /** Stores the switches per user on this device. */
  prefs: CallbackActorLogic<PrefsCommand, unknown>;
  /** Clicks on notifications, reported by the service worker (and the address a new tab was opened at). */
  clicks: CallbackActorLogic<EventObject, unknown>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    notifications: NotificationsRef;
  }
}
