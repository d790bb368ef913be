// EncryptedText's view of the device actor (systemId 'secretDevice'): what this device knows of the message, and
// asking it to read the message once it is shown.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useSecretDeviceRef } from './useSecretDeviceRef';
import type { SecretText } from '../machines/secretDevice/secretDevice.protocol';

export function useEncryptedText(conversationId: string, messageId: string, ciphertext: string): SecretText {
  const device = useSecretDeviceRef();
  const known = useSelector(device, (s) => s?.context.texts[messageId]);
  useEffect(() => {
    if (device && !known) device.send({ type: 'secretDevice.need', conversationId, messageId, ciphertext });
  }, [device, known, conversationId, messageId, ciphertext]);
  return known ?? { status: 'reading' };
}
