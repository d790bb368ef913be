// «Проверить шифрование»'s view of its actor (registry line 'secretVerify', alive while the dialog is open) and of the
// chat's actor (the device actor's child `chat:<id>`): a new epoch on this device reads the fingerprint again.
import { useSelector } from '@xstate/react';
import qrcode from 'qrcode-generator';
import { useEffect, useRef } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import { secretChatOf } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
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

/** One other person of the chat: the safety number of their identity key and this person's. */
export interface SafetyLine {
  userId: string;
  name: string;
  digits: string[];
  /** A QR code of the digits (a GIF data URL), for comparing screen to screen. */
  qr: string;
  verified: boolean;
  /** Their identity key changed since this device first saw it (a reset), not acknowledged yet. */
  changed: boolean;
}

export const SAFETY_EXPLANATION =
  'Числа безопасности зависят только от ключей личности — вашего и собеседника — и не меняются, когда кто-то из вас входит на новом устройстве. Сравните их при встрече или отсканируйте код с экрана собеседника.';
export const changedKeyText = (name: string) =>
  `${name}: ключ личности сменился. Новые устройства этого человека не добавляются, а сообщения ему не отправляются, пока вы не примете новый ключ.`;

/** A QR code of a safety number (its digits), as a GIF data URL. */
export function safetyQr(digits: string[]): string {
  const qr = qrcode(0, 'M');
  qr.addData(`beseda-safety:${digits.join('')}`);
  qr.make();
  return qr.createDataURL(4, 2);
}

export function safetyLines(v: SecretVerification, names: Map<string, string>): SafetyLine[] {
  return (v.people ?? []).map((p) => ({
    ...p,
    name: names.get(p.userId) ?? 'Участник',
    qr: safetyQr(p.digits),
  }));
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
  const chat = useSelector(device, secretChatOf(conversationId));
  const epoch = useSelector(chat, (s) => s?.context.epoch ?? null);
  // The first epoch seen is what the actor is loading already; a later one changed the group.
  const seen = useRef(epoch);
  useEffect(() => {
    if (epoch === seen.current) return;
    seen.current = epoch;
    actor.send({ type: 'secretVerify.refresh' });
  }, [actor, epoch]);
  return {
    busy,
    error,
    digits: verification?.fingerprint.digits ?? null,
    emoji: verification?.fingerprint.emoji ?? null,
    devices: verification ? deviceLines(verification, options.names) : [],
    people: verification ? safetyLines(verification, options.names) : [],
    onRetry: () => actor.send({ type: 'secretVerify.retry' }),
    onMark: (personId: string, verified: boolean) =>
      actor.send({ type: 'secretVerify.save', personId, action: verified ? 'verify' : 'unverify' }),
    onAcknowledge: (personId: string) => actor.send({ type: 'secretVerify.save', personId, action: 'acknowledge' }),
    onClose: options.onClose,
  };
}
