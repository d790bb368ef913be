// The words of voice messages and call entries (pure, tested in src/ui/conversation/voice-call-text.test.ts):
// «Голосовое сообщение 0:12», «Исходящий видеозвонок · 3:12», «Пропущенный звонок», «Звонок отклонён»,
// «Групповой звонок · 42:10 · 5 участников».
import type { CallInfo, Message } from '../../contract/entities';
import { clock, membersText } from '../../contract/format';
import { pollPreview } from '../../contract/poll';
import { systemText } from './system-text';

export { clock };

export const voicePreview = (durationMs: number) => `Голосовое сообщение ${clock(durationMs)}`;

/** What a call entry says to `me`: the caller sees outgoing and cancelled calls, the callee incoming and missed. */
export function callLabel(call: CallInfo, me: string): string {
  const mine = call.callerId === me;
  const video = call.kind === 'video';
  const length = clock(call.durationSec * 1000);
  // A group's call: «Групповой звонок · 42:10 · 5 участников», whoever started it, audio or video.
  if (call.participantIds) return `Групповой звонок · ${length} · ${membersText(call.participantIds.length)}`;
  switch (call.outcome) {
    case 'answered':
      return `${mine ? 'Исходящий' : 'Входящий'} ${video ? 'видеозвонок' : 'звонок'} · ${length}`;
    case 'declined':
      return 'Звонок отклонён';
    case 'cancelled':
      return mine ? 'Отменённый звонок' : 'Пропущенный звонок';
    default:
      return 'Пропущенный звонок';
  }
}

/** Whether the entry is a call this user missed (shown in the missed colour). */
export const isMissedFor = (call: CallInfo, me: string) =>
  call.participantIds
    ? !call.participantIds.includes(me)
    : call.callerId !== me && (call.outcome === 'missed' || call.outcome === 'cancelled');

/** The list's one-line preview of a voice message, a call, a poll or a group's SYSTEM entry; null for other messages. */
export function entryPreview(message: Message | undefined, me: string | null): string | null {
  if (!message) return null;
  if (message.type === 'VOICE' && message.voice) return voicePreview(message.voice.durationMs);
  if (message.type === 'CALL' && message.call) return callLabel(message.call, me ?? '');
  if (message.type === 'SYSTEM' && message.system) return systemText(message.system);
  if (message.type === 'POLL') return pollPreview(message.content);
  return null;
}
