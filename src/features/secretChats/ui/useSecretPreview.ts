// What the chat list shows for secret chats' latest ENCRYPTED messages: the text this device read, when it has.
import { useSelector } from '@xstate/react';
import { useSystemActor } from '../../../core/ui/RuntimeContext';
import type { SecretText } from '../machines/secretDevice/secretDevice.protocol';

const none: Record<string, SecretText> = {};

/** What this device knows of ENCRYPTED messages, by id (nothing while no device actor runs). */
export function useSecretPreview(): Record<string, SecretText> {
  const device = useSystemActor('secretDevice');
  return useSelector(device, (s) => s?.context.texts ?? none);
}
