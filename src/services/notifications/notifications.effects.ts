// The notifications feature's actor provided from the real services. The notification code loads on first use,
// apart from the chats page's first bundle.
import { fromCallback, fromPromise } from 'xstate';
import { afterFirstPaint } from '../app/first-paint';
import type { Services } from '../app/services';
import {
  type NotificationsEffects,
  notificationsMachine,
  type NotifierCommand,
  type PrefsCommand,
  type PresenterCommand,
} from '../../machines/notifications/notifications/notifications.machine';

// Nothing of it is needed to show the chat list: on its first load it comes once the list has painted.
const notificationCode = () => afterFirstPaint(() => import('./notifications'));

export function wireNotifications(s: Services) {
  return notificationsMachine.provide({
    actors: {
      readEnvironment: fromPromise(({ input }: { input: { userId: string } }) =>
        notificationCode().then((m) => m.readEnvironment(input.userId, s.api)),
      ),
      requestPermission: fromPromise(() => notificationCode().then((m) => m.requestPermission())),
      subscribe: fromPromise(({ input }: { input: { showText: boolean } }) =>
        notificationCode().then((m) => m.subscribe(s.api, input.showText)),
      ),
      unsubscribe: fromPromise(() => notificationCode().then((m) => m.unsubscribe(s.api))),
      forgetBrowserPush: fromPromise(() => notificationCode().then((m) => m.forgetBrowserSubscription())),
      presenter: fromCallback<PresenterCommand>(({ receive }) => {
        receive((c) => {
          void notificationCode()
            .then((m) => m.present(c.payload))
            .catch(() => undefined);
        });
      }),
      // The sound is part of the first bundle (the notification code is not needed to chime).
      notifier: fromCallback<NotifierCommand>(({ receive }) => {
        receive(() => s.sound.notify());
      }),
      prefs: fromCallback<PrefsCommand>(({ receive }) => {
        receive((c) => void notificationCode().then((m) => m.savePrefs(c.userId, c.prefs)));
      }),
      clicks: fromCallback(({ sendBack }) => {
        let stop: (() => void) | null = null;
        let stopped = false;
        void notificationCode().then((m) => {
          if (stopped) return;
          stop = m.watchClicks((o) =>
            sendBack({ type: 'notifications.clicked', kind: o.kind, conversationId: o.conversationId }),
          );
        });
        return () => {
          stopped = true;
          stop?.();
        };
      }),
    } satisfies NotificationsEffects,
  });
}
