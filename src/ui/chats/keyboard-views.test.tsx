// The keyboard's views from props: «Перейти к чату» (the field drives the list), «Сочетания клавиш», and the reaction
// set under a message moved by arrows, closed alone by Escape.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ReactionPicker } from '../conversation/MessageReactions';
import { QuickSwitcherView } from './QuickSwitcher';
import { SHORTCUTS, ShortcutsDialog } from './ShortcutsDialog';

const props = (over: Partial<Parameters<typeof QuickSwitcherView>[0]> = {}) => {
  const matches = [
    { id: 'c1', name: 'Анна' },
    { id: 'c2', name: 'Дача' },
  ];
  return {
    query: '',
    matches,
    index: 1,
    active: matches[1],
    onQuery: vi.fn(),
    onNext: vi.fn(),
    onPrevious: vi.fn(),
    onChoose: vi.fn(),
    onClose: vi.fn(),
    ...over,
  };
};

describe('«Перейти к чату»', () => {
  it('is a dialog whose field controls the list and points at the highlighted chat', () => {
    render(<QuickSwitcherView {...props()} />);
    const field = screen.getByRole('combobox', { name: 'Название чата' });
    expect(screen.getByRole('dialog', { name: 'Перейти к чату' })).toBeTruthy();
    expect(document.activeElement).toBe(field);
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Анна', 'Дача']);
    expect(options[1].getAttribute('aria-selected')).toBe('true');
    expect(field.getAttribute('aria-activedescendant')).toBe(options[1].id);
    expect(field.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
  });

  it('sends the typed words, ↑/↓, Enter, a click on a row and Escape', () => {
    const p = props();
    render(<QuickSwitcherView {...p} />);
    const field = screen.getByRole('combobox');
    fireEvent.change(field, { target: { value: 'да' } });
    expect(p.onQuery).toHaveBeenCalledWith('да');
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(p.onNext).toHaveBeenCalledTimes(1);
    expect(p.onPrevious).toHaveBeenCalledTimes(1);
    expect(p.onChoose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(screen.getAllByRole('option')[0]);
    expect(p.onChoose).toHaveBeenLastCalledWith(0);
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(p.onClose).toHaveBeenCalledTimes(1);
  });

  it('says so when nothing matches', () => {
    render(<QuickSwitcherView {...props({ matches: [], active: undefined, index: 0, query: 'xyz' })} />);
    expect(screen.getByRole('status').textContent).toBe('Нет чатов с таким названием');
    expect(screen.getByRole('combobox').getAttribute('aria-activedescendant')).toBeNull();
  });
});

describe('«Сочетания клавиш»', () => {
  it('lists every key of the app with what it does', () => {
    render(<ShortcutsDialog onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Сочетания клавиш' });
    const keys = [...dialog.querySelectorAll('kbd')].map((k) => k.textContent);
    expect(keys).toEqual(SHORTCUTS.flatMap((g) => g.keys.map(([key]) => key)));
    for (const key of ['Ctrl+K', 'Alt+↑ / Alt+↓', 'Ctrl+/', 'Esc']) expect(keys).toContain(key);
  });
});

describe('the reaction set', () => {
  it('takes the focus, moves by arrows round the set, chooses with Enter', () => {
    const onPick = vi.fn();
    render(<ReactionPicker onPick={onPick} />);
    fireEvent.click(screen.getByRole('button', { name: 'Поставить реакцию' }));
    const choices = screen.getAllByRole('button', { name: /^Реакция / });
    expect(document.activeElement).toBe(choices[0]);
    fireEvent.keyDown(choices[0], { key: 'ArrowRight' });
    expect(document.activeElement).toBe(choices[1]);
    fireEvent.keyDown(choices[1], { key: 'ArrowLeft' });
    fireEvent.keyDown(choices[0], { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(choices.at(-1));
    fireEvent.keyDown(choices.at(-1) as HTMLElement, { key: 'Home' });
    expect(document.activeElement).toBe(choices[0]);
    fireEvent.click(choices[0]);
    expect(onPick).toHaveBeenCalledWith(choices[0].textContent);
  });

  it('Escape closes the set alone (the key is taken) and gives the focus back to its button', () => {
    render(<ReactionPicker onPick={() => undefined} />);
    const opener = screen.getByRole('button', { name: 'Поставить реакцию' });
    fireEvent.click(opener);
    const under = vi.fn((e: KeyboardEvent) => e.defaultPrevented);
    window.addEventListener('keydown', under);
    fireEvent.keyDown(screen.getAllByRole('button', { name: /^Реакция / })[0], { key: 'Escape' });
    window.removeEventListener('keydown', under);
    expect(under.mock.results[0]?.value).toBe(true);
    expect(screen.queryAllByRole('button', { name: /^Реакция / })).toHaveLength(0);
    expect(document.activeElement).toBe(opener);
  });
});
