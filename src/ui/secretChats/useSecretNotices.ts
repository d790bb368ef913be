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

export const newDeviceText = (name: string) => `${name}: новое устройство`;

export function useSecretNotices(conversationId: string, names: Map<string, string>): TimelineLine[] {
  const device = useSecretDeviceRef();
  const notices = useSelector(device, (s) => s?.context.notices[conversationId] ?? NONE);
  return useMemo(
    () =>
      notices.map((n) => ({
        key: `secret-device:${n.epoch}:${n.deviceId}`,
        at: n.at,
        text: newDeviceText(names.get(n.userId) ?? 'Участник'),
      })),
    [notices, names],
  );
}
