import { describe, expect, it } from 'vitest';
import type { CallInfo, Message } from '../../contract/entities';
import { VOICE } from '../../contract/limits';
import { recordingType } from '../../services/composer/voice-recorder';
import { waveformOf } from '../../services/composer/voice-waveform';
import { callLabel, clock, entryPreview, isMissedFor, voicePreview } from './voice-call-text';

const call = (over: Partial<CallInfo>): CallInfo => ({
  kind: 'audio',
  outcome: 'answered',
  callerId: 'a',
  durationSec: 0,
  ...over,
});

describe('voice and call words', () => {
  it('formats lengths as m:ss and h:mm:ss', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(3_999)).toBe('0:03');
    expect(clock(192_000)).toBe('3:12');
    expect(clock(3_723_000)).toBe('1:02:03');
    expect(voicePreview(12_400)).toBe('Голосовое сообщение 0:12');
  });

  it('says each outcome from each side', () => {
    expect(callLabel(call({ kind: 'video', durationSec: 192 }), 'a')).toBe('Исходящий видеозвонок · 3:12');
    expect(callLabel(call({ durationSec: 5 }), 'b')).toBe('Входящий звонок · 0:05');
    expect(callLabel(call({ outcome: 'missed' }), 'a')).toBe('Пропущенный звонок');
    expect(callLabel(call({ outcome: 'missed' }), 'b')).toBe('Пропущенный звонок');
    expect(callLabel(call({ outcome: 'declined' }), 'b')).toBe('Звонок отклонён');
    expect(callLabel(call({ outcome: 'cancelled' }), 'a')).toBe('Отменённый звонок');
    expect(callLabel(call({ outcome: 'cancelled' }), 'b')).toBe('Пропущенный звонок');
    expect(isMissedFor(call({ outcome: 'missed' }), 'b')).toBe(true);
    expect(isMissedFor(call({ outcome: 'missed' }), 'a')).toBe(false);
  });

  it("says a group's call with its length and who took part; missed for a member who never came", () => {
    const group = call({ durationSec: 2_530, participantIds: ['a', 'b', 'c', 'd', 'e'] });
    expect(callLabel(group, 'b')).toBe('Групповой звонок · 42:10 · 5 участников');
    expect(callLabel({ ...group, kind: 'video', durationSec: 3_723, participantIds: ['a', 'b'] }, 'z')).toBe(
      'Групповой звонок · 1:02:03 · 2 участника',
    );
    expect(isMissedFor(group, 'c')).toBe(false);
    expect(isMissedFor(group, 'z')).toBe(true);
    expect(isMissedFor({ ...group, outcome: 'missed', participantIds: ['a'] }, 'a')).toBe(false);
  });

  it('previews voice messages and calls in the list, nothing else', () => {
    const base = {
      id: 'm',
      conversationId: 'c',
      senderId: 'a',
      content: '',
      createdAt: '',
      deletedAt: null,
      clientMessageId: null,
      replyTo: null,
      attachments: [],
      receipts: [],
      reactions: [],
      editedAt: null,
    };
    expect(entryPreview({ ...base, type: 'VOICE', voice: { durationMs: 3_200, waveform: [1] } } as Message, 'b')).toBe(
      'Голосовое сообщение 0:03',
    );
    expect(entryPreview({ ...base, type: 'CALL', call: call({ outcome: 'missed' }) } as Message, 'b')).toBe(
      'Пропущенный звонок',
    );
    expect(entryPreview({ ...base, type: 'TEXT', content: 'привет' } as Message, 'b')).toBeNull();
    expect(entryPreview({ ...base, type: 'POLL', content: 'Куда идём?' } as Message, 'b')).toBe('📊 Опрос: Куда идём?');
    expect(entryPreview(undefined, 'b')).toBeNull();
  });
});

describe('the recording', () => {
  it('has at most 100 integer peaks of 0..100, the loudest at 100', () => {
    const levels = Array.from({ length: 3000 }, (_, i) => Math.abs(Math.sin(i / 50)) * 0.4);
    const w = waveformOf(levels);
    expect(w).toHaveLength(VOICE.waveformMax);
    expect(w.every((p) => Number.isInteger(p) && p >= 0 && p <= VOICE.peakMax)).toBe(true);
    expect(Math.max(...w)).toBe(VOICE.peakMax);
    expect(waveformOf([0.1, 0.2])).toEqual([50, 100]);
    expect(waveformOf([])).toEqual([0]);
    expect(waveformOf([0, 0, Number.NaN])).toEqual([0, 0, 0]);
  });

  it('is Opus in WebM where the browser records it, else AAC in MP4', () => {
    expect(recordingType(() => true)).toBe('audio/webm;codecs=opus');
    expect(recordingType((t) => t === 'audio/mp4')).toBe('audio/mp4');
    expect(recordingType(() => false)).toBe('');
  });
});

describe("the call's chat lines", () => {
  it('are the conversation’s messages with their authors, then the own texts still in the outbox', async () => {
    const { callChatLines } = await import('../calls/call-chat');
    const base = {
      conversationId: 'c',
      deletedAt: null,
      replyTo: null,
      attachments: [],
      receipts: [],
      reactions: [],
      editedAt: null,
    };
    const messages = [
      {
        ...base,
        id: 'm1',
        senderId: 'b',
        type: 'TEXT',
        content: 'Привет',
        createdAt: '2025-03-01T10:00:00.000Z',
        clientMessageId: null,
      },
      {
        ...base,
        id: 'm2',
        senderId: 'a',
        type: 'VOICE',
        content: '',
        createdAt: '2025-03-01T10:00:01.000Z',
        clientMessageId: 'x-1',
        voice: { durationMs: 3000, waveform: [1] },
      },
    ] as Message[];
    const outbox = [
      {
        id: 'tmp-x-1',
        clientMessageId: 'x-1',
        conversationId: 'c',
        kind: 'voice',
        content: '',
        createdAt: '2025-03-01T10:00:01.000Z',
      },
      {
        id: 'tmp-x-2',
        clientMessageId: 'x-2',
        conversationId: 'c',
        kind: 'text',
        content: 'Слышно?',
        createdAt: '2025-03-01T10:00:02.000Z',
      },
      {
        id: 'tmp-x-3',
        clientMessageId: 'x-3',
        conversationId: 'other',
        kind: 'text',
        content: 'не сюда',
        createdAt: '2025-03-01T10:00:02.000Z',
      },
    ] as never;
    const people = [
      { id: 'a', displayName: 'Анна' },
      { id: 'b', displayName: 'Борис' },
    ] as never;
    expect(
      callChatLines(messages, outbox, 'c', 'a', people).map((l) => [l.message, l.from.name, l.from.isLocal]),
    ).toEqual([
      ['Привет', 'Борис', false],
      ['Голосовое сообщение 0:03', 'Анна', true],
      ['Слышно?', 'Анна', true],
    ]);
  });

  it('show a pin notice (and other service entries) in their own words, never as a file', async () => {
    const { callChatLines } = await import('../calls/call-chat');
    const pinned = {
      id: 'm3',
      conversationId: 'c',
      senderId: 'b',
      type: 'SYSTEM',
      content: '',
      createdAt: '2025-03-01T10:00:03.000Z',
      deletedAt: null,
      replyTo: null,
      attachments: [],
      receipts: [],
      reactions: [],
      editedAt: null,
      clientMessageId: null,
      system: {
        kind: 'pinned',
        actor: { id: 'b', name: 'Борис' },
        targets: [],
        title: null,
        messageId: 'm1',
        excerpt: 'Привет',
      },
    } as Message;
    const people = [{ id: 'b', displayName: 'Борис' }] as never;
    expect(callChatLines([pinned], [], 'c', 'a', people).map((l) => l.message)).toEqual([
      'Борис закрепил(а) сообщение «Привет»',
    ]);
  });
});
