// «Проверить шифрование»'s view of its actor (systemId 'secretVerify', alive while the dialog is open) and of the
// chat's actor (the device actor's child `chat:<id>`): a new epoch on this device reads the fingerprint again.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { SecretChatRef } from '../../machines/secretChats/secretChat/secretChat.protocol';
import type { SecretVerification } from '../../machines/secretChats/secretVerify/secretVerify.protocol';
import { useSecretDeviceRef } from './useSecretDeviceRef';

export const VERIFY_EXPLANATION =
  'Сравните эти числа и эмодзи с собеседником при личной встрече: у каждого участника на каждом устройстве они должны быть одинаковыми. Если они совпадают, этот чат не читает никто, кроме устройств, перечисленных ниже.';

export interface VerifyDeviceLine {
  userId: string;
  name: string;
  /** «2 устройства», with «это устройство» when one of them is this one. */
  devices: string;
}

/** «1 устройство», «2 устройства», «5 устройств». */
export function devicesWord(n: number): string {
  const d10 = n % 10;
  const d100 = n % 100;
  const word =
    d10 === 1 && d100 !== 11
      ? 'устройство'
      : d10 >= 2 && d10 <= 4 && (d100 < 12 || d100 > 14)
        ? 'устройства'
        : 'устройств';
  return `${n} ${word}`;
}

export function deviceLines(v: SecretVerification, names: Map<string, string>): VerifyDeviceLine[] {
  return v.members.map((m) => ({
    userId: m.userId,
    name: names.get(m.userId) ?? 'Участник',
    devices:
      devicesWord(m.deviceIds.length) +
      (v.ownDeviceId && m.deviceIds.includes(v.ownDeviceId) ? ', среди них это устройство' : ''),
  }));
}

export function useSecretVerify(options: {
  userId: string;
  conversationId: string;
  names: Map<string, string>;
  onClose(): void;
}) {
  const { userId, conversationId } = options;
  const actor = useOwnedActor('secretVerify', { userId, conversationId });
  const verification = useSelector(actor, (s) => s?.context.verification ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const device = useSecretDeviceRef();
  const chat = useSelector(
    device,
    (s) => (s?.children as Record<string, SecretChatRef | undefined> | undefined)?.[`chat:${conversationId}`],
  );
  const epoch = useSelector(chat, (s) => s?.context.epoch ?? null);
  // The first epoch seen is what the actor is loading already; a later one changed the group.
  const seen = useRef(epoch);
  useEffect(() => {
    if (epoch === seen.current) return;
    seen.current = epoch;
    actor?.send({ type: 'secretVerify.refresh' });
  }, [actor, epoch]);
  return {
    busy,
    error,
    digits: verification?.fingerprint.digits ?? null,
    emoji: verification?.fingerprint.emoji ?? null,
    devices: verification ? deviceLines(verification, options.names) : [],
    onRetry: () => actor?.send({ type: 'secretVerify.retry' }),
    onClose: options.onClose,
  };
}
