// The search's word handling and index syntax as pure functions: what both databases are given.
import { describe, expect, it } from 'vitest';
import { messageExcerpt } from '../../server/search/excerpt';
import { fts5Match, tsQuery, tsVector } from '../../server/search/index-syntax';
import { indexTerms, parseQuery } from '../../server/search/morphology';

describe('morphology', () => {
  it('folds case, ё, composed and decomposed letters, and stems Russian and English', () => {
    expect(indexTerms('СОБАКИ, собакой; собаку!')).toBe('собак собак собак');
    expect(indexTerms('пошёл пошел пош\u0435\u0308л')).toBe('пошел пошел пошел');
    expect(indexTerms('йод и\u0306од')).toBe(indexTerms('йод йод'));
    expect(indexTerms('files FILE 2024')).toBe('file file 2024');
  });

  it('reads words, paired quotes as phrases, and the last word as a prefix while typed', () => {
    expect(parseQuery('собаку видел')).toEqual([
      { kind: 'word', stem: 'собак', prefix: false },
      { kind: 'word', stem: 'видел', prefix: true },
    ]);
    expect(parseQuery('"красный мяч" ')).toEqual([{ kind: 'phrase', stems: ['красн', 'мяч'] }]);
    // A lone quote is punctuation; one letter is never a prefix.
    expect(parseQuery('мяч" к')).toEqual([
      { kind: 'word', stem: 'мяч', prefix: false },
      { kind: 'word', stem: 'к', prefix: false },
    ]);
    expect(parseQuery('*** ( ) - :')).toEqual([]);
  });
});

describe('index syntax', () => {
  it('quotes every stem, so operators typed by the user stay words', () => {
    const parts = parseQuery('NEAR(a OR b) "c d" e*');
    expect(fts5Match(parts)).toBe('"near" AND "a" AND "or" AND "b" AND "c d" AND "e"');
    expect(tsQuery(parts)).toBe("'near' & 'a' & 'or' & 'b' & ('c' <-> 'd') & 'e'");
    expect(tsQuery(parseQuery('соб'))).toBe("'соб':*");
  });

  it('writes a tsvector literal with the positions FTS5 sees', () => {
    expect(tsVector('мяч красн мяч')).toBe("'мяч':1,3 'красн':2");
    expect(tsVector('')).toBe('');
  });
});

describe('excerpt', () => {
  it('marks every matching word and falls back to a file name', () => {
    expect(messageExcerpt('Собака и собаки', [], parseQuery('собакой '))).toEqual({
      snippet: 'Собака и собаки',
      highlights: [
        [0, 6],
        [9, 15],
      ],
    });
    expect(messageExcerpt('', ['Отчёт.pdf'], parseQuery('отчет '))).toEqual({
      snippet: 'Отчёт.pdf',
      highlights: [[0, 5]],
    });
  });
});
