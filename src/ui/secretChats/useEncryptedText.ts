// EncryptedText's view of the device actor (systemId 'secretDevice'): what this device knows of the message (and of
// the message it answers), and asking it to read the message once it is shown.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import {
  ENCRYPTED_PREVIEW,
  type SecretText,
  shownText,
} from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { useSecretDeviceRef } from './useSecretDeviceRef';
import { secretWords } from './useSecretTilePreview';

const READING: SecretText = { status: 'reading' };

export function useEncryptedText(
  conversationId: string,
  messageId: string,
  ciphertext: string,
  createdAt?: string,
  /** The sender the server names: a text MLS says someone else wrote is not shown under it. */
  senderId?: string,
): { known: SecretText; reply: string | null } {
  const device = useSecretDeviceRef();
  const kept = useSelector(device, (s) => s?.context.texts[messageId]);
  const known = shownText(kept, senderId);
  const replyToId = known?.status === 'text' ? known.replyToId : null;
  const quoted = useSelector(device, (s) => (replyToId ? s?.context.texts[replyToId] : undefined));
  useEffect(() => {
    if (device && !kept) device.send({ type: 'secretDevice.need', conversationId, messageId, ciphertext, createdAt });
  }, [device, kept, conversationId, messageId, ciphertext, createdAt]);
  const reply = replyToId
    ? quoted?.status === 'text'
      ? secretWords(quoted.text, quoted.attachments)
      : ENCRYPTED_PREVIEW
    : null;
  return { known: known ?? READING, reply };
}
