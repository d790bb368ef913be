// Formatting in exports (./text-entities): Telegram's typed parts and WhatsApp's markers become ranges over the plain
// text; what this app would refuse loses its formatting, never its words.
import { describe, expect, it } from 'vitest';
import { readTelegramText, readWhatsAppText } from './text-entities';

describe('readTelegramText', () => {
  it('keeps quotes, underline, a block with its language and a link under words as ranges', () => {
    const r = readTelegramText([
      { type: 'blockquote', text: 'цитата' },
      '\n',
      { type: 'underline', text: 'под' },
      ' ',
      { type: 'pre', text: 'x = 1', language: 'python' },
      ' ',
      { type: 'text_link', text: 'тут', href: 'mailto:a@b.ru' },
      { type: 'expandable_blockquote', text: '🙂 ещё' },
    ]);
    expect(r).toEqual({
      text: 'цитата\nпод x = 1 тут🙂 ещё',
      entities: [
        { type: 'blockquote', offset: 0, length: 6 },
        { type: 'underline', offset: 7, length: 3 },
        { type: 'pre', offset: 11, length: 5, language: 'python' },
        { type: 'text_link', offset: 17, length: 3, url: 'mailto:a@b.ru' },
        { type: 'blockquote', offset: 20, length: 6 },
      ],
    });
  });

  it('a link this app would not open keeps its address in the text; an odd language is dropped, the block kept', () => {
    expect(readTelegramText([{ type: 'text_link', text: 'жми', href: 'javascript:alert(1)' }])).toEqual({
      text: 'жми (javascript:alert(1))',
      entities: [],
    });
    expect(readTelegramText([{ type: 'pre', text: 'код', language: 'не язык' }])).toEqual({
      text: 'код',
      entities: [{ type: 'pre', offset: 0, length: 3 }],
    });
  });
});

describe('readWhatsAppText', () => {
  it('reads *bold*, _italic_, ~strike~ and ``` as ranges, the markers left out', () => {
    expect(readWhatsAppText('*жирный* и _курсив_ и ~нет~ и ```код```')).toEqual({
      text: 'жирный и курсив и нет и код',
      entities: [
        { type: 'bold', offset: 0, length: 6 },
        { type: 'italic', offset: 9, length: 6 },
        { type: 'strikethrough', offset: 18, length: 3 },
        { type: 'code', offset: 24, length: 3 },
      ],
    });
    expect(readWhatsAppText('```\nа\nб```')).toEqual({
      text: '\nа\nб',
      entities: [{ type: 'pre', offset: 0, length: 4 }],
    });
  });

  it('leaves markers inside words, unpaired, across lines or around spaces as text', () => {
    for (const s of ['snake_case_name', '2*3*4', '* не *', '*через\nстроку*', 'a_b', '_'])
      expect(readWhatsAppText(s), s).toEqual({ text: s, entities: [] });
  });

  it('nests *_both_*', () => {
    expect(readWhatsAppText('*_оба_*')).toEqual({
      text: 'оба',
      entities: [
        { type: 'italic', offset: 0, length: 3 },
        { type: 'bold', offset: 0, length: 3 },
      ],
    });
  });
});
