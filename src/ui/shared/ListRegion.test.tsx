// The list body shared by the chats list and the contacts views: rows, the placeholder before the first fetch,
// the empty note, and what replaces the rows (search results).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListRegion } from './ListRegion';

interface Row {
  id: string;
  name: string;
}
const rows: Row[] = [
  { id: 'a', name: 'Анна' },
  { id: 'b', name: 'Борис' },
];
const none: Row[] = [];
const base = {
  itemKey: (r: Row) => r.id,
  renderItem: (r: Row) => <li>{r.name}</li>,
  className: 'person-list',
  label: 'Список',
  loading: <p>Загрузка…</p>,
  empty: <p>Пусто</p>,
};

describe('ListRegion', () => {
  it('lists the rows in order under its name and class', () => {
    render(<ListRegion {...base} items={rows} loaded />);
    const list = screen.getByRole('list', { name: 'Список' });
    expect(list.className).toBe('person-list');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Анна', 'Борис']);
  });

  it('no rows: the placeholder until the first fetch answered, then the empty note', () => {
    const { rerender } = render(<ListRegion {...base} items={none} loaded={false} />);
    expect(screen.getByText('Загрузка…')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    rerender(<ListRegion {...base} items={none} loaded />);
    expect(screen.getByText('Пусто')).toBeTruthy();
    // Without a placeholder of its own, the empty note stands in from the start.
    rerender(<ListRegion {...base} loading={undefined} items={none} loaded={false} />);
    expect(screen.getByText('Пусто')).toBeTruthy();
  });

  it("a replacement takes the rows' place while it is there", () => {
    render(<ListRegion {...base} items={rows} loaded replacement={<p>Результаты</p>} />);
    expect(screen.getByText('Результаты')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
