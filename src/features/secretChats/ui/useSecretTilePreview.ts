// SecretTilePreview's view of the device actor: the text of a secret chat's latest message once this device has
// read it (asking it to read the message), else null.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useSecretDeviceRef } from './useSecretDeviceRef';

export function useSecretTilePreview(
  conversationId: string,
  messageId: string,
  ciphertext: string,
  createdAt?: string,
): string | null {
  const device = useSecretDeviceRef();
  const known = useSelector(device, (s) => s?.context.texts[messageId]);
  useEffect(() => {
    if (device && !known) device.send({ type: 'secretDevice.need', conversationId, messageId, ciphertext, createdAt });
  }, [device, known, conversationId, messageId, ciphertext, createdAt]);
  return known?.status === 'text' ? known.text : null;
}
