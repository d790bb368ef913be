// What the chat list shows for secret chats' latest ENCRYPTED messages: the text this device read, when it has; the
// device reads the latest message of each secret chat for it.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useSecretDeviceRef } from './useSecretDeviceRef';
import type { SecretText } from '../machines/secretDevice/secretDevice.protocol';

const none: Record<string, SecretText> = {};

export interface EncryptedLatest {
  conversationId: string;
  messageId: string;
  ciphertext: string;
}

/** What this device knows of ENCRYPTED messages, by id (nothing while no device actor runs). */
export function useSecretPreview(latest: EncryptedLatest[]): Record<string, SecretText> {
  const device = useSecretDeviceRef();
  const texts = useSelector(device, (s) => s?.context.texts ?? none);
  useEffect(() => {
    if (!device) return;
    for (const m of latest) if (!texts[m.messageId]) device.send({ type: 'secretDevice.need', ...m });
  }, [device, latest, texts]);
  return texts;
}
