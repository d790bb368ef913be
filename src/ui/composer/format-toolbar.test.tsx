// The composer's formatting keys and its toolbar over a selection (Composer.tsx with ./format-keys), rendered from
// props: a key or a button wraps the selected words in their markers; nothing shows without a selection.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Composer, type ComposerProps } from './Composer';

const props = (over: Partial<ComposerProps> = {}): ComposerProps => ({
  text: '',
  reply: null,
  uploadProgress: null,
  onText: vi.fn(),
  onSubmit: vi.fn(),
  onClearReply: vi.fn(),
  onAttach: vi.fn(),
  ...over,
});
const field = () => screen.getByRole('textbox', { name: 'Сообщение' }) as HTMLTextAreaElement;
const select = (start: number, end: number) => {
  field().setSelectionRange(start, end);
  fireEvent.select(field());
};

describe('formatting in the composer', () => {
  it('Ctrl+B, ⌘+I and Ctrl+Shift+X wrap the selection (by the key’s place: a Russian layout too)', () => {
    const p = props({ text: 'очень важно' });
    render(<Composer {...p} />);
    select(6, 11);
    fireEvent.keyDown(field(), { key: 'и', code: 'KeyB', ctrlKey: true });
    fireEvent.keyDown(field(), { key: 'ш', code: 'KeyI', metaKey: true });
    fireEvent.keyDown(field(), { key: 'Ч', code: 'KeyX', ctrlKey: true, shiftKey: true });
    expect(p.onText).toHaveBeenNthCalledWith(1, 'очень **важно**');
    expect(p.onText).toHaveBeenNthCalledWith(2, 'очень __важно__');
    expect(p.onText).toHaveBeenNthCalledWith(3, 'очень ~~важно~~');
    expect(p.onSubmit).not.toHaveBeenCalled();
  });

  it('Ctrl+K asks for the address and makes the selection a link; no address, no change', () => {
    const p = props({ text: 'см. сайт' });
    render(<Composer {...p} />);
    select(4, 8);
    const ask = vi.spyOn(window, 'prompt').mockReturnValueOnce('https://example.org').mockReturnValueOnce(null);
    fireEvent.keyDown(field(), { key: 'k', code: 'KeyK', ctrlKey: true });
    fireEvent.keyDown(field(), { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(ask).toHaveBeenCalledWith('Адрес ссылки', 'https://');
    expect(p.onText).toHaveBeenCalledTimes(1);
    expect(p.onText).toHaveBeenCalledWith('см. [сайт](https://example.org)');
    ask.mockRestore();
  });

  it('shows the toolbar over a selection only; its buttons, named in Russian, wrap it', () => {
    const p = props({ text: 'ещё слово' });
    render(<Composer {...p} />);
    expect(screen.queryByRole('toolbar', { name: 'Форматирование' })).toBeNull();
    select(4, 9);
    const bar = screen.getByRole('toolbar', { name: 'Форматирование' });
    const names = ['Жирный', 'Курсив', 'Подчёркнутый', 'Зачёркнутый', 'Код', 'Ссылка', 'Спойлер'];
    expect([...bar.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'))).toEqual(names);
    fireEvent.click(screen.getByRole('button', { name: 'Спойлер' }));
    expect(p.onText).toHaveBeenCalledWith('ещё ||слово||');
    select(9, 9);
    expect(screen.queryByRole('toolbar', { name: 'Форматирование' })).toBeNull();
  });

  it('leaves a read-only composer alone', () => {
    const p = props({ text: 'текст', readOnly: true });
    render(<Composer {...p} />);
    fireEvent.keyDown(field(), { key: 'b', code: 'KeyB', ctrlKey: true });
    expect(p.onText).not.toHaveBeenCalled();
  });
});
