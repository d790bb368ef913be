// The «<Имя>: новое устройство» lines of a secret chat, from the device actor (systemId 'secretDevice'), which
// reads them from the sealed store whenever the chat's group changes. Small on purpose: the conversation pane
// imports it, and it needs only the device actor's protocol.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SecretDeviceNotice } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { useSecretDeviceRef } from './useSecretDeviceRef';

export interface TimelineLine {
  key: string;
  /** ISO time: where the line goes among the messages. */
  at: string;
  text: string;
}

const NONE: SecretDeviceNotice[] = [];

/** Every device added is one its person's identity key signed (the others are refused): it says so. */
export const newDeviceText = (name: string) => `${name}: новое устройство, подтверждённое ключом личности`;
/** A member's first device in the chat (they were added before they had one). */
export const firstDeviceText = (name: string) => `${name}: первое устройство, подтверждённое ключом личности`;
/** A device the identity checks refused (docs/secret-chats.md "Identity keys"). */
export const refusedDeviceText = (name: string) => `Неподтверждённое устройство не добавлено: ${name}`;
/** A welcome of a group this device holds under another chat. */
export const OTHER_GROUP_TEXT = 'Приглашение из другого чата отклонено';

export function useSecretNotices(conversationId: string, names: Map<string, string>): TimelineLine[] {
  const device = useSecretDeviceRef();
  const notices = useSelector(device, (s) => s?.context.notices[conversationId] ?? NONE);
  return useMemo(
    () =>
      notices.map((n) => ({
        key: `secret-device:${n.refused ? 'refused:' : ''}${n.epoch}:${n.deviceId}`,
        at: n.at,
        text: !n.refused
          ? (n.first ? firstDeviceText : newDeviceText)(names.get(n.userId) ?? 'Участник')
          : n.userId
            ? refusedDeviceText(names.get(n.userId) ?? 'Участник')
            : OTHER_GROUP_TEXT,
      })),
    [notices, names],
  );
}
