// A formatted message as the timeline draws it (./FormattedText.tsx, loaded by ./MessageText.tsx): every kind of
// range as its element, nesting, ranges at the text's ends, emoji inside ranges, a text that looks like HTML, a
// spoiler hidden until it is opened, «Копировать» on a code block, and links that never lead anywhere unsafe.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TextEntity } from '../../contract/entities';
import { parseMarkup } from '../../contract/text-markup';
import { CopyTextContext } from './copy-text';
import { entityTree, FormattedText } from './FormattedText';
import { MessageText } from './MessageText';

const draw = (text: string, entities: TextEntity[], mentions?: { name: string; me: boolean }[]) =>
  render(<FormattedText text={text} entities={entities} mentions={mentions} />).container;

describe('FormattedText', () => {
  it('draws each kind of range as its element, at the text’s very ends too', () => {
    const { text, entities } = parseMarkup('**ж** __к__ ++п++ ~~з~~ `к` [с](https://a.ru) > ц');
    const el = draw(text, entities);
    expect(el.querySelector('strong')?.textContent).toBe('ж');
    expect(el.querySelector('em')?.textContent).toBe('к');
    expect(el.querySelector('u')?.textContent).toBe('п');
    expect(el.querySelector('s')?.textContent).toBe('з');
    expect(el.querySelector('code.msg-code')?.textContent).toBe('к');
    const a = el.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://a.ru/');
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(el.textContent).toBe(text);
    const ends = draw('ab', [
      { type: 'bold', offset: 0, length: 1 },
      { type: 'italic', offset: 1, length: 1 },
    ]);
    expect(ends.innerHTML).toContain('<strong>a</strong><em>b</em>');
  });

  it('nests ranges, and keeps emoji whole inside them', () => {
    const { text, entities } = parseMarkup('**жир __🙂к🎉__** и > нет');
    const el = draw(text, entities);
    expect(el.querySelector('strong em')?.textContent).toBe('🙂к🎉');
    expect(el.querySelector('strong')?.textContent).toBe('жир 🙂к🎉');
  });

  it('shows a text that looks like HTML as text', () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>alert(1)</script>';
    const el = draw(hostile, [{ type: 'bold', offset: 0, length: 10 }]);
    expect(el.querySelector('img, script')).toBeNull();
    expect(el.textContent).toBe(hostile);
  });

  it('never links to javascript: or data: addresses (the words stay, plain)', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', ' vbscript:x']) {
      const el = draw('жми', [{ type: 'text_link', offset: 0, length: 3, url }]);
      expect(el.querySelector('a')).toBeNull();
      expect(el.textContent).toBe('жми');
    }
  });

  it('keeps addresses and mentions of plain parts, and no address inside code becomes a link', () => {
    const { text, entities } = parseMarkup('**@Анна** смотри example.org и `example.com`');
    const el = draw(text, entities, [{ name: 'Анна', me: false }]);
    expect(el.querySelector('strong .msg-mention')?.textContent).toBe('@Анна');
    expect([...el.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['example.org']);
  });

  it('a spoiler is a button and its words are not on the page until opened', () => {
    const el = draw('это тайна', [{ type: 'spoiler', offset: 4, length: 5 }]);
    expect(el.textContent).not.toContain('тайна');
    const button = screen.getByRole('button', { name: 'Скрытый текст, показать' });
    // A real button: Tab reaches it, Enter and Space open it.
    expect(button.tagName).toBe('BUTTON');
    fireEvent.click(button);
    expect(el.textContent).toBe('это тайна');
    expect(screen.queryByRole('button', { name: 'Скрытый текст, показать' })).toBeNull();
  });

  it('a code block shows its language and hands its text to the pane’s copy with «Копировать»', () => {
    const copy = vi.fn();
    const { text, entities } = parseMarkup('```ts\nconst a = 1;\n```');
    const el = render(
      <CopyTextContext.Provider value={copy}>
        <FormattedText text={text} entities={entities} />
      </CopyTextContext.Provider>,
    ).container;
    expect(el.querySelector('pre')?.textContent).toBe('const a = 1;');
    expect(el.querySelector('.msg-pre-language')?.textContent).toBe('ts');
    fireEvent.click(screen.getByRole('button', { name: 'Копировать' }));
    expect(copy).toHaveBeenCalledWith('const a = 1;');
  });

  it('a code block outside a pane that can copy offers no button', () => {
    const { text, entities } = parseMarkup('```\nx\n```');
    draw(text, entities);
    expect(screen.queryByRole('button', { name: 'Копировать' })).toBeNull();
  });

  it('drops a crossing or out-of-text range instead of drawing it wrong', () => {
    const roots = entityTree('abcdef', [
      { type: 'bold', offset: 0, length: 4 },
      { type: 'italic', offset: 2, length: 4 },
      { type: 'code', offset: 5, length: 9 },
    ]);
    expect(roots.map((n) => n.e.type)).toEqual(['bold']);
  });
});

describe('MessageText', () => {
  it('loads the renderer for a formatted message and shows the plain text meanwhile', async () => {
    const { container } = render(<MessageText text="жирный" entities={[{ type: 'bold', offset: 0, length: 6 }]} />);
    expect(container.textContent).toBe('жирный');
    await waitFor(() => expect(container.querySelector('strong')?.textContent).toBe('жирный'));
  });
});
