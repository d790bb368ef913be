import { useSelector } from '@xstate/react';
import { NOTIFICATION_NOTES } from '../../machines/notifications/notifications/notifications.protocol';
import { insecureText } from '../../machines/shared/secure-context.protocol';
import { useLateSessionActor } from '../app/useOwnedActor';

/** The settings page's view of the notifications actor (systemId 'notifications'): the two switches and a note. */
export function useNotificationSettings() {
  // Its code comes once the chat list has painted: until then the switches read as off.
  const actor = useLateSessionActor('notifications');
  const on = useSelector(actor, (s) => s?.hasTag('on') ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const unsupported = useSelector(actor, (s) => s?.hasTag('unsupported') ?? false);
  const denied = useSelector(actor, (s) => s?.hasTag('denied') ?? false);
  const pushFailed = useSelector(actor, (s) => s?.hasTag('pushFailed') ?? false);
  const showText = useSelector(actor, (s) => s?.context.showText ?? true);
  const insecure = useSelector(actor, (s) => (s?.hasTag('unsupported') ? s.context.insecure : null) ?? null);
  const note = insecure
    ? insecureText('notifications', insecure)
    : unsupported
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
    /** A plain-http page: the note is the sentence about the https address (a link when the server knows it). */
    notificationsInsecure: insecure,
    onNotifications: (enable: boolean) =>
      actor.send({ type: enable ? 'notifications.enable' : 'notifications.disable' }),
    onShowText: (value: boolean) => actor.send({ type: 'notifications.showText', showText: value }),
  };
}

export type NotificationSettings = ReturnType<typeof useNotificationSettings>;
