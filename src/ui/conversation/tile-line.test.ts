import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/entities';
import { messageWords, TILE_PREVIEW_CHARS, tileLine, tileMark, tileTime } from './tile-line';

const msg = (over: Partial<Message>): Message => ({
  id: 'm',
  conversationId: 'c',
  senderId: 'a',
  type: 'TEXT',
  content: '',
  createdAt: '2026-11-24T10:00:00.000Z',
  deletedAt: null,
  editedAt: null,
  clientMessageId: null,
  replyTo: null,
  attachments: [],
  receipts: [],
  reactions: [],
  ...over,
});
const file = (name: string, type: 'IMAGE' | 'FILE' = 'FILE') => ({
  url: `/uploads/${name}`,
  type,
  name,
  size: 1,
  width: null,
  height: null,
});
const people = [
  { id: 'a', displayName: 'Анна', username: 'anna' },
  { id: 'b', displayName: '', username: 'boris' },
];

describe('a chat tile’s line about its latest message', () => {
  it('puts every kind of message in words', () => {
    expect(messageWords(msg({ content: '  привет,\n\nкак  дела? ' }), 'b')).toBe('привет, как дела?');
    expect(messageWords(msg({ type: 'IMAGE', attachments: [file('a.png', 'IMAGE')] }), 'b')).toBe('Фото');
    expect(messageWords(msg({ type: 'IMAGE', content: 'закат', attachments: [file('a.png', 'IMAGE')] }), 'b')).toBe(
      'Фото, закат',
    );
    expect(messageWords(msg({ type: 'FILE', attachments: [file('отчёт.pdf')] }), 'b')).toBe('Файл: отчёт.pdf');
    expect(messageWords(msg({ type: 'FILE', attachments: [file('a.pdf'), file('b.pdf')] }), 'b')).toBe('Файлы: 2');
    expect(messageWords(msg({ type: 'VOICE', voice: { durationMs: 5_100, waveform: [] } }), 'b')).toBe(
      'Голосовое сообщение 0:05',
    );
    expect(
      messageWords(
        msg({ type: 'CALL', call: { kind: 'audio', outcome: 'missed', callerId: 'a', durationSec: 0 } }),
        'b',
      ),
    ).toBe('Пропущенный звонок');
  });

  it('cuts a long text to one bounded line', () => {
    const long = 'ы'.repeat(500);
    const words = messageWords(msg({ content: long }), 'b');
    expect([...words]).toHaveLength(TILE_PREVIEW_CHARS);
    expect(words.endsWith('…')).toBe(true);
  });

  it('names the sender in a group («Вы» for oneself), never in a direct chat', () => {
    expect(tileLine(msg({ content: 'да' }), 'b', true, people)).toEqual({ sender: 'Анна', text: 'да' });
    expect(tileLine(msg({ senderId: 'b', content: 'да' }), 'b', true, people)).toEqual({ sender: 'Вы', text: 'да' });
    expect(tileLine(msg({ senderId: 'x', content: 'да' }), 'b', true, people)?.sender).toBe('Удалённый аккаунт');
    expect(tileLine(msg({ content: 'да' }), 'b', false, people)).toEqual({ sender: null, text: 'да' });
    expect(tileLine(undefined, 'b', true, people)).toBeNull();
  });

  it('times it: hh:mm today, «вчера», the date otherwise', () => {
    const now = new Date(2026, 10, 24, 15, 30).getTime();
    expect(tileTime(new Date(2026, 10, 24, 9, 5).toISOString(), now)).toBe('09:05');
    expect(tileTime(new Date(2026, 10, 23, 23, 59).toISOString(), now)).toBe('вчера');
    expect(tileTime(new Date(2026, 10, 2, 12, 0).toISOString(), now)).toBe('02.11');
    expect(tileTime(new Date(2025, 0, 7, 12, 0).toISOString(), now)).toBe('07.01.25');
    expect(tileTime(undefined, now)).toBeNull();
  });

  it('marks one’s own latest message read once someone else read it', () => {
    expect(tileMark(msg({ senderId: 'b' }), 'b')).toBe('sent');
    expect(tileMark(msg({ senderId: 'b', receipts: [{ userId: 'a', status: 'READ' }] }), 'b')).toBe('read');
    expect(tileMark(msg({ senderId: 'a' }), 'b')).toBeNull();
  });
});
