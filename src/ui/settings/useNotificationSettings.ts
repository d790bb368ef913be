import { useSelector } from '@xstate/react';
import { NOTIFICATION_NOTES } from '../../machines/notifications/notifications/notifications.protocol';
import { useSystemActor } from '../app/RuntimeContext';

/** The settings page's view of the notifications actor (systemId 'notifications'): the two switches and a note. */
export function useNotificationSettings() {
  const actor = useSystemActor('notifications');
  const on = useSelector(actor, (s) => s?.hasTag('on') ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const unsupported = useSelector(actor, (s) => s?.hasTag('unsupported') ?? false);
  const denied = useSelector(actor, (s) => s?.hasTag('denied') ?? false);
  const pushFailed = useSelector(actor, (s) => s?.hasTag('pushFailed') ?? false);
  const showText = useSelector(actor, (s) => s?.context.showText ?? true);
  const note = unsupported
    ? NOTIFICATION_NOTES.unsupported
    : denied
      ? NOTIFICATION_NOTES.denied
      : pushFailed
        ? NOTIFICATION_NOTES.pushFailed
        : null;
  return {
    notificationsOn: on,
    notificationsBusy: busy,
    notificationsAvailable: !unsupported,
    showText,
    notificationsNote: note,
    onNotifications: (enable: boolean) =>
      actor?.send({ type: enable ? 'notifications.enable' : 'notifications.disable' }),
    onShowText: (value: boolean) => actor?.send({ type: 'notifications.showText', showText: value }),
  };
}

export type NotificationSettings = ReturnType<typeof useNotificationSettings>;
