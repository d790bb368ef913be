// System notifications and Web Push (docs/notifications.md; systemId 'notifications'). The switch
// «Уведомления» asks the browser's permission (only when flipped, never at load); with it granted the browser
// subscribes to Web Push (the service worker, POST /api/push/subscribe) so a closed tab is reached too. A failed
// subscription keeps notifications for the open tab. A message the chats list counts as unread (its `chats.unread`:
// from someone else, its conversation not in front of the user) plays the notification sound; while the page is
// hidden it and incoming calls are shown as system notifications, as is a call started in a group too large to
// ring (it chimes like a message); «Показывать текст сообщений» hides the text
// (the server is told too, for pushes). Clicking a notification opens its conversation.
import { assertEvent, assign, type EventObject, enqueueActions, fromCallback, setup, spawnChild } from 'xstate';
import { fromInGroup, type NotificationPayload } from '../../../contract/notification';
import { chatsInbox, onChats } from '../../chats/chats/chats.protocol';
import { listenToServer } from '../../realtime/index';
import { watchSignedInUser } from '../../session/index';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import { present } from '../../shared/present';
import { watchPageVisibility } from '../../shared/watchers';
import { messageNotification } from './message-notification';
import type {
  NotificationEnvironment,
  NotificationsContext,
  NotificationsEffects,
  NotificationsEmitted,
  NotificationsEvent,
  NotifierCommand,
  PermissionState,
  PrefsCommand,
  PresenterCommand,
} from './notifications.protocol';

export * from './notifications.protocol';

export const notificationsServerEvents = listenToServer<NotificationsEvent>({
  'call:incoming': (p) => ({
    type: 'notifications.call',
    payload: { kind: 'call', conversationId: p.conversationId, title: p.from.name, video: p.video, icon: null },
  }),
  'groupCall:started': (p) => ({
    type: 'notifications.groupCall',
    payload: {
      kind: 'groupCall',
      conversationId: p.conversationId,
      title: fromInGroup(p.from.name, p.title),
      video: p.video,
      icon: null,
    },
  }),
});

/** The messages the chats list counts as unread (the chats actor's `chats.unread`), as `notifications.message`. */
export const unreadMessages = fromCallback<EventObject, void, NotificationsEvent>(({ system, sendBack }) => {
  return onChats(system, 'chats.unread', (e) =>
    sendBack({ type: 'notifications.message', message: e.message, conversation: e.conversation }),
  );
});

const initialContext = (): NotificationsContext => ({
  userId: null,
  enabled: false,
  showText: true,
  permission: 'default',
  pageVisible: true,
  insecure: null,
});

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    emitted: {} as NotificationsEmitted,
  },
  actors: {
    session: watchSignedInUser('notifications.signedIn', 'notifications.signedOut'),
    pageVisibility: watchPageVisibility('notifications.visibility'),
    serverEvents: notificationsServerEvents,
    unreadMessages,
    readEnvironment: notWired('notifications.readEnvironment') as NotificationsEffects['readEnvironment'],
    requestPermission: notWired('notifications.requestPermission') as NotificationsEffects['requestPermission'],
    subscribe: notWired('notifications.subscribe') as NotificationsEffects['subscribe'],
    unsubscribe: notWired('notifications.unsubscribe') as NotificationsEffects['unsubscribe'],
    forgetBrowserPush: notWired('notifications.forgetBrowserPush') as NotificationsEffects['forgetBrowserPush'],
    presenter: notWiredCallback('notifications.presenter') as NotificationsEffects['presenter'],
    notifier: notWiredCallback('notifications.notifier') as NotificationsEffects['notifier'],
    prefs: notWiredCallback('notifications.prefs') as NotificationsEffects['prefs'],
    clicks: notWiredCallback('notifications.clicks') as NotificationsEffects['clicks'],
  },
  guards: {
    unsupported: (_, env: NotificationEnvironment) => !env.supported,
    deniedEnv: (_, env: NotificationEnvironment) => env.enabled && env.permission === 'denied',
    onAndGranted: (_, env: NotificationEnvironment) => env.enabled && env.permission === 'granted',
    granted: (_, permission: PermissionState) => permission === 'granted',
    deniedAnswer: (_, permission: PermissionState) => permission === 'denied',
    /** Shown only while the tab is hidden: a visible tab tells its own story (badge, sound). */
    showable: ({ context }) => context.enabled && context.permission === 'granted' && !context.pageVisible,
    /** A message's or a large group's call: the conversation opens (a ringing call answers in the call view). */
    opensConversation: ({ event }) => {
      assertEvent(event, 'notifications.clicked');
      return event.kind !== 'call';
    },
  },
  actions: {
    takeInsecure: assign((_, env: NotificationEnvironment) => ({ insecure: env.insecure ?? null })),
    reset: assign(({ context }) => ({ ...initialContext(), pageVisible: context.pageVisible })),
    rememberUser: assign({
      userId: ({ event }) => {
        assertEvent(event, 'notifications.signedIn');
        return event.userId;
      },
    }),
    takeEnvironment: assign((_, env: NotificationEnvironment) => ({
      enabled: env.enabled,
      showText: env.showText,
      permission: env.permission,
    })),
    takePermission: assign((_, permission: PermissionState) => ({ permission })),
    turnOn: assign({ enabled: true }),
    turnOff: assign({ enabled: false }),
    setShowText: assign({
      showText: ({ event }) => {
        assertEvent(event, 'notifications.showText');
        return event.showText;
      },
    }),
    setVisibility: assign({
      pageVisible: ({ event }) => {
        assertEvent(event, 'notifications.visibility');
        return event.visible;
      },
    }),
    savePrefs: enqueueActions(({ context, enqueue }) => {
      if (context.userId)
        enqueue.sendTo('prefs', {
          type: 'save',
          userId: context.userId,
          prefs: { enabled: context.enabled, showText: context.showText },
        } satisfies PrefsCommand);
    }),
    chime: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, ['notifications.message', 'notifications.groupCall']);
      const conversationId =
        event.type === 'notifications.message' ? event.message.conversationId : event.payload.conversationId;
      enqueue.emit({ type: 'sound.notify', conversationId });
      enqueue.sendTo('notifier', { type: 'sound.notify' } satisfies NotifierCommand);
    }),
    present: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['notifications.message', 'notifications.call', 'notifications.groupCall']);
      const payload: NotificationPayload =
        event.type !== 'notifications.message'
          ? event.payload
          : {
              ...messageNotification(event.conversation, event.message),
              ...(context.showText ? {} : { preview: null }),
            };
      enqueue.sendTo('presenter', { type: 'present', payload } satisfies PresenterCommand);
    }),
    openConversation: enqueueActions(({ event, system, enqueue }) => {
      assertEvent(event, 'notifications.clicked');
      const chats = chatsInbox(system);
      if (chats) enqueue.sendTo(chats, { type: 'chats.open', conversationId: event.conversationId });
      enqueue.emit({ type: 'notifications.opened', conversationId: event.conversationId });
    }),
  },
}).createMachine({
  id: 'notifications',
  context: initialContext,
  invoke: [
    { id: 'session', src: 'session' },
    { id: 'pageVisibility', src: 'pageVisibility' },
    { id: 'presenter', src: 'presenter' },
    { id: 'notifier', src: 'notifier' },
    { id: 'prefs', src: 'prefs' },
  ],
  on: {
    'notifications.visibility': { actions: 'setVisibility' },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'notifications.signedIn': { target: 'signedIn', actions: 'rememberUser' } },
    },
    signedIn: {
      invoke: [
        { id: 'serverEvents', src: 'serverEvents' },
        { id: 'unreadMessages', src: 'unreadMessages' },
        { id: 'clicks', src: 'clicks' },
      ],
      on: {
        'notifications.signedOut': {
          target: 'signedOut',
          actions: ['reset', spawnChild('forgetBrowserPush', { id: 'forgetBrowserPush' })],
        },
        // Every unseen message chimes; while the tab is hidden (and the switch is on) it is shown too.
        'notifications.message': [{ guard: 'showable', actions: ['chime', 'present'] }, { actions: 'chime' }],
        'notifications.call': { guard: 'showable', actions: 'present' },
        // A large group's call rings nobody: it is told as a message is.
        'notifications.groupCall': [{ guard: 'showable', actions: ['chime', 'present'] }, { actions: 'chime' }],
        'notifications.clicked': [{ guard: 'opensConversation', actions: 'openConversation' }, {}],
        'notifications.showText': { actions: ['setShowText', 'savePrefs'] },
      },
      initial: 'starting',
      states: {
        starting: {
          invoke: {
            id: 'readEnvironment',
            src: 'readEnvironment',
            input: ({ context }) => ({ userId: present(context.userId, 'userId') }),
            onDone: [
              {
                guard: { type: 'unsupported', params: ({ event }) => event.output },
                target: 'unsupported',
                actions: { type: 'takeInsecure', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'deniedEnv', params: ({ event }) => event.output },
                target: 'denied',
                actions: { type: 'takeEnvironment', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'onAndGranted', params: ({ event }) => event.output },
                target: 'subscribing',
                actions: { type: 'takeEnvironment', params: ({ event }) => event.output },
              },
              { target: 'off', actions: [{ type: 'takeEnvironment', params: ({ event }) => event.output }, 'turnOff'] },
            ],
            onError: { target: 'unsupported' },
          },
        },
        unsupported: { tags: ['unsupported'] },
        off: {
          on: { 'notifications.enable': 'asking' },
        },
        asking: {
          tags: ['on', 'busy'],
          invoke: {
            id: 'requestPermission',
            src: 'requestPermission',
            onDone: [
              {
                guard: { type: 'granted', params: ({ event }) => event.output },
                target: 'subscribing',
                actions: [{ type: 'takePermission', params: ({ event }) => event.output }, 'turnOn', 'savePrefs'],
              },
              {
                guard: { type: 'deniedAnswer', params: ({ event }) => event.output },
                target: 'denied',
                actions: { type: 'takePermission', params: ({ event }) => event.output },
              },
              // Dismissed without an answer: still off, and asked again next time the switch is flipped.
              { target: 'off' },
            ],
            onError: { target: 'off' },
          },
        },
        denied: {
          tags: ['denied'],
          // The browser answers at once while it is blocked; once unblocked in its settings it asks.
          on: { 'notifications.enable': 'asking' },
        },
        subscribing: {
          tags: ['on', 'busy'],
          invoke: {
            id: 'subscribe',
            src: 'subscribe',
            input: ({ context }) => ({ showText: context.showText }),
            onDone: { target: 'subscribed' },
            onError: { target: 'failed' },
          },
          on: { 'notifications.disable': { target: 'unsubscribing', actions: ['turnOff', 'savePrefs'] } },
        },
        subscribed: {
          tags: ['on', 'subscribed'],
          on: {
            'notifications.disable': { target: 'unsubscribing', actions: ['turnOff', 'savePrefs'] },
            // The server is told, so pushes follow the switch too.
            'notifications.showText': { target: 'subscribing', actions: ['setShowText', 'savePrefs'] },
          },
        },
        failed: {
          tags: ['on', 'pushFailed'],
          on: {
            'notifications.disable': { target: 'unsubscribing', actions: ['turnOff', 'savePrefs'] },
            'notifications.enable': 'subscribing',
          },
        },
        unsubscribing: {
          tags: ['busy'],
          invoke: { id: 'unsubscribe', src: 'unsubscribe', onDone: 'off', onError: 'off' },
        },
      },
    },
  },
});

export type NotificationsActorRef = import('xstate').ActorRefFrom<typeof notificationsMachine>;
