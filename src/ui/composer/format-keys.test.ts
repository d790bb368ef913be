// The composer's formatting keys: which key wraps in which marker, wrapping and unwrapping a selection, links; and
// that what they write is what the send reads as formatting.
import { describe, expect, it } from 'vitest';
import { parseMarkup } from '../../contract/text-markup';
import { formatKeyOf, linkSelection, wrapSelection } from './format-keys';

const key = (code: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }>) =>
  formatKeyOf({ code, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('formatKeyOf', () => {
  it('maps Ctrl or ⌘ with B, I, U, K and Shift with X, M, P; by the key’s place, so any layout works', () => {
    expect(key('KeyB', { ctrlKey: true })).toBe('**');
    expect(key('KeyI', { metaKey: true })).toBe('__');
    expect(key('KeyU', { ctrlKey: true })).toBe('++');
    expect(key('KeyX', { ctrlKey: true, shiftKey: true })).toBe('~~');
    expect(key('KeyM', { ctrlKey: true, shiftKey: true })).toBe('`');
    expect(key('KeyP', { metaKey: true, shiftKey: true })).toBe('||');
    expect(key('KeyK', { ctrlKey: true })).toBe('link');
  });

  it('leaves other keys alone: no modifier, Alt, Ctrl+X (cut), Ctrl+Shift+B', () => {
    expect(key('KeyB', {})).toBeNull();
    expect(key('KeyB', { ctrlKey: true, altKey: true })).toBeNull();
    expect(key('KeyX', { ctrlKey: true })).toBeNull();
    expect(key('KeyB', { ctrlKey: true, shiftKey: true })).toBeNull();
  });
});

describe('wrapSelection', () => {
  it('wraps the selection, keeps it selected, and the send reads it as formatting', () => {
    const r = wrapSelection('очень важно', 6, 11, '**');
    expect(r).toEqual({ text: 'очень **важно**', start: 8, end: 13 });
    expect(parseMarkup(r.text).entities).toEqual([{ type: 'bold', offset: 6, length: 5 }]);
  });

  it('unwraps a selection already inside the same markers', () => {
    expect(wrapSelection('очень **важно**', 8, 13, '**')).toEqual({ text: 'очень важно', start: 6, end: 11 });
  });

  it('puts the caret between the markers when nothing is selected', () => {
    expect(wrapSelection('а ', 2, 2, '~~')).toEqual({ text: 'а ~~~~', start: 4, end: 4 });
  });

  it('keeps emoji whole around the selection', () => {
    const r = wrapSelection('🙂 да 🙂', 3, 5, '__');
    expect(r.text).toBe('🙂 __да__ 🙂');
    expect(parseMarkup(r.text)).toEqual({ text: '🙂 да 🙂', entities: [{ type: 'italic', offset: 3, length: 2 }] });
  });
});

describe('linkSelection', () => {
  it('makes the selected words a link the send reads, or the address its own words', () => {
    const r = linkSelection('см. сайт', 4, 8, 'https://example.org');
    expect(r).toEqual({ text: 'см. [сайт](https://example.org)', start: 5, end: 9 });
    expect(parseMarkup(r.text).entities).toEqual([
      { type: 'text_link', offset: 4, length: 4, url: 'https://example.org/' },
    ]);
    expect(linkSelection('', 0, 0, 'https://a.ru').text).toBe('[https://a.ru](https://a.ru)');
  });
});
