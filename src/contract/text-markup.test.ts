// The formatting contract's pure parts: the judge of ranges against a text (message-entities.ts) and the
// composer's markers turned into ranges and back (text-markup.ts).
import { describe, expect, it } from 'vitest';
import { checkEntities, type EntityInput, trimEntities } from './message-entities';
import { parseMarkup, toMarkup } from './text-markup';

const check = (text: string, entities: EntityInput[]) => checkEntities(text, entities);

describe('checkEntities', () => {
  it('accepts nested and identical ranges, sorted outer first, code inside another of the same range', () => {
    const r = check('жирный курсив', [
      { type: 'italic', offset: 7, length: 6 },
      { type: 'code', offset: 0, length: 6 },
      { type: 'bold', offset: 0, length: 13 },
      { type: 'underline', offset: 0, length: 6 },
    ]);
    expect(r).toEqual({
      ok: true,
      entities: [
        { type: 'bold', offset: 0, length: 13 },
        { type: 'underline', offset: 0, length: 6 },
        { type: 'code', offset: 0, length: 6 },
        { type: 'italic', offset: 7, length: 6 },
      ],
    });
  });

  it('takes ranges that touch, and ranges at the very ends of the text', () => {
    expect(
      check('abcd', [
        { type: 'bold', offset: 0, length: 2 },
        { type: 'italic', offset: 2, length: 2 },
      ]).ok,
    ).toBe(true);
  });

  it('counts UTF-16 code units: an emoji is two, and a range may not cut it', () => {
    const text = 'a🙂b';
    expect(check(text, [{ type: 'bold', offset: 1, length: 2 }]).ok).toBe(true);
    expect(check(text, [{ type: 'bold', offset: 1, length: 1 }])).toEqual({
      ok: false,
      message: 'Форматирование не может разрезать символ пополам',
    });
    expect(check(text, [{ type: 'bold', offset: 2, length: 2 }]).ok).toBe(false);
  });

  it('refuses crossings in either order, anything inside code or a block, and misplaced fields', () => {
    const crossing = 'Участки форматирования пересекаются, а не вложены друг в друга';
    const a = { type: 'bold', offset: 0, length: 4 };
    const b = { type: 'italic', offset: 2, length: 4 };
    expect(check('abcdefgh', [a, b])).toEqual({ ok: false, message: crossing });
    expect(check('abcdefgh', [b, a])).toEqual({ ok: false, message: crossing });
    expect(
      check('abcdefgh', [
        { type: 'pre', offset: 0, length: 8 },
        { type: 'spoiler', offset: 1, length: 3 },
      ]),
    ).toEqual({ ok: false, message: 'Внутри кода другое форматирование не допускается' });
    expect(check('abcd', [{ type: 'bold', offset: 0, length: 2, url: 'https://a.ru' }])).toEqual({
      ok: false,
      message: 'Адрес бывает только у ссылки',
    });
    expect(check('abcd', [{ type: 'pre', offset: 0, length: 2, language: 'c c' }])).toEqual({
      ok: false,
      message: 'Неверное название языка у блока кода',
    });
  });

  it('takes http, https and mailto links, normalised, and nothing else', () => {
    const link = (url: string) => check('ссылка', [{ type: 'text_link', offset: 0, length: 6, url }]);
    expect(link('https://пример.рф/a b')).toEqual({
      ok: true,
      entities: [{ type: 'text_link', offset: 0, length: 6, url: 'https://xn--e1afmkfd.xn--p1ai/a%20b' }],
    });
    expect(link('mailto:a@b.ru').ok).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://a.ru', '/relative', 'http://', 'vbscript:x'])
      expect(link(bad).ok, bad).toBe(false);
  });

  it('moves ranges with the trimmed text and drops those left empty', () => {
    expect(
      trimEntities('  ab  ', [
        { type: 'bold', offset: 0, length: 3 },
        { type: 'italic', offset: 4, length: 2 },
      ]),
    ).toEqual([{ type: 'bold', offset: 0, length: 1 }]);
  });
});

describe('parseMarkup', () => {
  it('turns each marker into its range and leaves the markers out', () => {
    expect(parseMarkup('**жирный** и __курсив__ ++под++ ~~нет~~ ||тайна|| `код`')).toEqual({
      text: 'жирный и курсив под нет тайна код',
      entities: [
        { type: 'bold', offset: 0, length: 6 },
        { type: 'italic', offset: 9, length: 6 },
        { type: 'underline', offset: 16, length: 3 },
        { type: 'strikethrough', offset: 20, length: 3 },
        { type: 'spoiler', offset: 24, length: 5 },
        { type: 'code', offset: 30, length: 3 },
      ],
    });
  });

  it('nests markers, and a crossing one stays text', () => {
    expect(parseMarkup('**a __b__ c**')).toEqual({
      text: 'a b c',
      entities: [
        { type: 'bold', offset: 0, length: 5 },
        { type: 'italic', offset: 2, length: 1 },
      ],
    });
    expect(parseMarkup('**a __b** c__')).toEqual({
      text: 'a __b c__',
      entities: [{ type: 'bold', offset: 0, length: 5 }],
    });
  });

  it('keeps markers that do not close, that are empty or that do not touch their text', () => {
    for (const s of ['**не закрыт', 'a ** b ** c', '****', '`', '``', '2 ~~ 3', 'C++ и C++', '```'])
      expect(parseMarkup(s), s).toEqual({ text: s, entities: [] });
  });

  it('takes nothing inside code as markup', () => {
    expect(parseMarkup('`**x**` и **y**')).toEqual({
      text: '**x** и y',
      entities: [
        { type: 'code', offset: 0, length: 5 },
        { type: 'bold', offset: 8, length: 1 },
      ],
    });
    expect(parseMarkup('```ts\nconst a = **b**;\n```')).toEqual({
      text: 'const a = **b**;',
      entities: [{ type: 'pre', offset: 0, length: 16, language: 'ts' }],
    });
  });

  it('reads a code block with or without a language, inline or on lines of its own', () => {
    expect(parseMarkup('до\n```\nx = 1\ny = 2\n```\nпосле')).toEqual({
      text: 'до\nx = 1\ny = 2\nпосле',
      entities: [{ type: 'pre', offset: 3, length: 11 }],
    });
    expect(parseMarkup('a ```b``` c')).toEqual({ text: 'a b c', entities: [{ type: 'pre', offset: 2, length: 1 }] });
  });

  it('makes lines that start with «> » one quote, formatted inside', () => {
    expect(parseMarkup('> раз **два**\n> три\nчетыре')).toEqual({
      text: 'раз два\nтри\nчетыре',
      entities: [
        { type: 'blockquote', offset: 0, length: 11 },
        { type: 'bold', offset: 4, length: 3 },
      ],
    });
    expect(parseMarkup('a > b').entities).toEqual([]);
  });

  it('makes [text](address) a link for http(s) and mailto only', () => {
    expect(parseMarkup('см. [сайт](https://example.org)')).toEqual({
      text: 'см. сайт',
      entities: [{ type: 'text_link', offset: 4, length: 4, url: 'https://example.org/' }],
    });
    expect(parseMarkup('[x](javascript:alert(1))').entities).toEqual([]);
  });

  it('takes no markers inside an address, but formats an address between markers', () => {
    expect(parseMarkup('см. https://ex.com/a__b__c и **https://a.ru**')).toEqual({
      text: 'см. https://ex.com/a__b__c и https://a.ru',
      entities: [{ type: 'bold', offset: 29, length: 12 }],
    });
  });

  it('counts offsets in UTF-16 code units with emoji and Cyrillic', () => {
    const { text, entities } = parseMarkup('🙂 **пр🎉вет** 👍🏽');
    expect(text).toBe('🙂 пр🎉вет 👍🏽');
    expect(entities).toEqual([{ type: 'bold', offset: 3, length: 7 }]);
    expect(text.slice(3, 10)).toBe('пр🎉вет');
  });

  it('gives back what toMarkup wrote for every kind of range', () => {
    const samples = [
      '**жирный** и `код` с ~~зачёркнутым~~',
      '> цитата **с жирным**\n> вторая строка\nобычный ++текст++',
      'текст\n```python\nprint("**")\n```\n||спойлер __с курсивом__||',
      '[ссылка **внутри**](https://example.org/) и __курсив__',
    ];
    for (const s of samples) {
      const parsed = parseMarkup(s);
      expect(parsed.entities.length, s).toBeGreaterThan(0);
      expect(parseMarkup(toMarkup(parsed.text, parsed.entities)), s).toEqual(parsed);
    }
  });
});
