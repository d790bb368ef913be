// SecretTilePreview's view of the device actor: a secret chat's latest message in words once this device has read
// it (asking it to read the message), else null.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { secretKindOf } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { shownText } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { useSecretDeviceRef } from './useSecretDeviceRef';

export function useSecretTilePreview(
  conversationId: string,
  messageId: string,
  ciphertext: string,
  createdAt?: string,
  senderId?: string,
): string | null {
  const device = useSecretDeviceRef();
  const kept = useSelector(device, (s) => s?.context.texts[messageId]);
  const known = shownText(kept, senderId);
  useEffect(() => {
    if (device && !kept) device.send({ type: 'secretDevice.need', conversationId, messageId, ciphertext, createdAt });
  }, [device, kept, conversationId, messageId, ciphertext, createdAt]);
  return known?.status === 'text' ? secretWords(known.text, known.attachments) : null;
}

const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The message in words, as a plaintext one's: its text, or «Фото» / «Файл: name» / «Голосовое сообщение 0:03». */
export function secretWords(text: string, attachments: SecretAttachment[] | undefined): string {
  const first = attachments?.[0];
  if (!first) return text;
  if (first.voice) return `Голосовое сообщение ${clock(first.voice.durationMs)}`;
  const caption = text.replace(/\s+/g, ' ').trim();
  const count = attachments.length;
  const what =
    secretKindOf(first) === 'IMAGE' && attachments.every((a) => secretKindOf(a) === 'IMAGE')
      ? 'Фото'
      : count > 1
        ? `Файлы: ${count}`
        : `Файл: ${first.name}`;
  return caption ? `${what}, ${caption}` : what;
}
