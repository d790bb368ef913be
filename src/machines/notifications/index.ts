// The public face of the notifications feature: other features import only this module, src/ui/notifications/index.ts (its views) and its
// *.protocol.ts files.
export { notificationsMachine } from './notifications/notifications.machine';
