import { describe, expect, it } from 'vitest';
import { messageBody, messagePreview, newMessagesPhrase, PUSH } from './notification';

describe('notification text', () => {
  it('counts in Russian plural forms', () => {
    expect([1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map(newMessagesPhrase)).toEqual([
      '1 новое сообщение',
      '2 новых сообщения',
      '3 новых сообщения',
      '4 новых сообщения',
      '5 новых сообщений',
      '11 новых сообщений',
      '12 новых сообщений',
      '14 новых сообщений',
      '21 новое сообщение',
      '22 новых сообщения',
      '25 новых сообщений',
      '101 новое сообщение',
      '111 новых сообщений',
    ]);
  });

  it('previews text (cut, one line), «Фото» and «Файл»; hidden text says only that a message came', () => {
    expect(messagePreview('TEXT', '  Привет,\n\nмир  ')).toBe('Привет, мир');
    expect(messagePreview('TEXT', 'я'.repeat(500))).toHaveLength(PUSH.previewChars);
    expect(messagePreview('IMAGE', 'x')).toBe('Фото');
    expect(messagePreview('FILE', 'x')).toBe('Файл');
    expect(messagePreview('POLL', 'Куда идём?')).toBe('📊 Опрос: Куда идём?');
    expect(messageBody(1, 'Привет')).toBe('Привет');
    expect(messageBody(1, null)).toBe('Новое сообщение');
    expect(messageBody(3, 'Привет')).toBe('3 новых сообщения');
  });
});
