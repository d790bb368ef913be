// The filter chips under the list's field and «Перейти к дате» in the conversation's search bar: thin views,
// rendered from props; what they call is what they are tested for.
import { fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { conversation, entry, person } from '../../../tests/client/chat-fixtures';
import { NO_FILTERS } from '../../machines/search/search/search.protocol';
import { ConversationSearchBar, type ConversationSearchBarProps } from './ConversationSearchBar';
import { filterChoices, filterTokens, typedFilters } from './search-filter-choices';
import { SearchFilters, type SearchFiltersProps } from './SearchFilters';

const me = person('u1', 'Я');
const anna = person('u2', 'Анна Петрова');
const boris = person('u3', 'Борис');
const entries = [
  entry(conversation('c1', [me, anna])),
  entry(conversation('c2', [me, anna, boris], { isGroup: true, title: 'Поход' })),
  entry(conversation('c3', [me, boris], { secret: true })),
];

function filters(over: Partial<SearchFiltersProps> = {}) {
  const props: SearchFiltersProps = {
    filters: NO_FILTERS,
    query: '',
    entries,
    me: 'u1',
    onFilter: vi.fn(),
    onInput: vi.fn(),
    ...over,
  };
  render(<SearchFilters {...props} />);
  return props;
}

it('offers the people and chats of the list, secret chats left out', () => {
  const choices = filterChoices(entries, 'u1');
  expect(choices.chats.map((c) => c.title)).toEqual(['Анна Петрова', 'Поход']);
  expect(choices.people.map((p) => p.name)).toEqual(['Анна Петрова', 'Борис', 'Я']);
  expect(typedFilters('поход от:ан', choices)).toBeNull();
  expect(typedFilters('от:анна в:пох рюкзак', choices)).toEqual({
    text: 'рюкзак',
    filters: { from: { id: 'u2', name: 'Анна Петрова' }, chat: { id: 'c2', title: 'Поход' } },
  });
  expect(typedFilters('от:никто рюкзак', choices)).toBeNull();
});

it('each chip opens its picker and sets its filter', () => {
  const props = filters();
  fireEvent.click(screen.getByTestId('search-chip-from'));
  fireEvent.change(screen.getByRole('textbox', { name: 'Чьи сообщения' }), { target: { value: 'бор' } });
  fireEvent.click(screen.getByRole('button', { name: 'Борис' }));
  expect(props.onFilter).toHaveBeenLastCalledWith({ from: { id: 'u3', name: 'Борис' } });
  fireEvent.click(screen.getByTestId('search-chip-chat'));
  fireEvent.click(screen.getByRole('button', { name: 'Поход' }));
  expect(props.onFilter).toHaveBeenLastCalledWith({ chat: { id: 'c2', title: 'Поход' } });
  fireEvent.click(screen.getByTestId('search-chip-kind'));
  fireEvent.click(screen.getByRole('button', { name: 'Голосовые' }));
  expect(props.onFilter).toHaveBeenLastCalledWith({ kind: 'voice' });
  fireEvent.click(screen.getByTestId('search-chip-date'));
  fireEvent.change(screen.getByLabelText('с'), { target: { value: '2026-05-03' } });
  fireEvent.change(screen.getByLabelText('по'), { target: { value: '2026-05-01' } });
  expect(screen.getByText('Дата «по» раньше даты «с»')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('по'), { target: { value: '2026-05-04' } });
  fireEvent.click(screen.getByRole('button', { name: 'Применить' }));
  expect(props.onFilter).toHaveBeenLastCalledWith({ since: '2026-05-03', until: '2026-05-04' });
});

it('a set chip shows its value and clears with ✕; a typed от: sets the chip and leaves the words', () => {
  const props = filters({
    filters: { ...NO_FILTERS, kind: 'photo', since: '2026-05-01', until: '2026-05-01' },
    query: 'от:анна рюкзак',
  });
  expect(screen.getByTestId('search-chip-kind').textContent).toBe('Тип: Фото');
  expect(screen.getByTestId('search-chip-date').textContent).toBe('Дата: 01.05.2026');
  fireEvent.click(screen.getByRole('button', { name: 'Убрать фильтр «Тип»' }));
  expect(props.onFilter).toHaveBeenCalledWith({ kind: null });
  expect(props.onFilter).toHaveBeenCalledWith({ from: { id: 'u2', name: 'Анна Петрова' } });
  expect(props.onInput).toHaveBeenCalledWith('рюкзак');
});

it('«Перейти к дате» in the conversation’s bar sends the day picked and shows why it went nowhere', () => {
  const props: ConversationSearchBarProps = {
    query: '',
    status: 'empty',
    position: 0,
    total: 0,
    more: false,
    error: null,
    onInput: vi.fn(),
    onOlder: vi.fn(),
    onNewer: vi.fn(),
    onClear: vi.fn(),
    onRetry: vi.fn(),
    onClose: vi.fn(),
    dating: false,
    dateError: null,
    onJumpToDate: vi.fn(),
  };
  const { rerender } = render(<ConversationSearchBar {...props} />);
  fireEvent.click(screen.getByRole('button', { name: 'Перейти к дате' }));
  fireEvent.change(screen.getByTestId('conversation-date'), { target: { value: '2026-05-01' } });
  expect(props.onJumpToDate).toHaveBeenCalledWith('2026-05-01');
  rerender(<ConversationSearchBar {...props} dateError="С этого дня сообщений нет" />);
  expect(screen.getByTestId('conversation-search-count').textContent).toBe('С этого дня сообщений нет');
});

it('opened from the header’s «Перейти к дате», the bar starts at its calendar', () => {
  const onJumpToDate = vi.fn();
  const noop = vi.fn();
  render(
    <ConversationSearchBar
      {...{ query: '', status: 'empty', position: 0, total: 0, more: false, error: null, dating: false }}
      {...{ onInput: noop, onOlder: noop, onNewer: noop, onClear: noop, onRetry: noop, onClose: noop }}
      dateError={null}
      onJumpToDate={onJumpToDate}
      dateFirst
    />,
  );
  expect(screen.queryByRole('searchbox')).toBeNull();
  fireEvent.change(screen.getByTestId('conversation-date'), { target: { value: '2026-05-02' } });
  expect(onJumpToDate).toHaveBeenCalledWith('2026-05-02');
});

it('takes от: and в: once a space ends them, and leaves the words', () => {
  expect(filterTokens('от:анна поход')).toEqual({ text: 'поход', from: 'анна', chat: null });
  expect(filterTokens('поход в:Команда фото')).toEqual({ text: 'поход фото', from: null, chat: 'Команда' });
  expect(filterTokens('ОТ:Борис В:семья ')).toEqual({ text: '', from: 'Борис', chat: 'семья' });
  // Still being typed, or a word that merely contains the letters: untouched.
  expect(filterTokens('от:ан')).toEqual({ text: 'от:ан', from: null, chat: null });
  expect(filterTokens('поход:завтра ')).toEqual({ text: 'поход:завтра ', from: null, chat: null });
});
