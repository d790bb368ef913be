// «История изменений» rendered from props (EditHistoryView): loading, the versions newest first with the current one
// marked, and a failure with «Повторить».
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EditHistoryView } from './EditHistoryDialog';

const versions = [
  { content: 'третья', at: '2026-11-25T10:09:00.000Z', current: true },
  { content: 'вторая', at: '2026-11-25T10:05:00.000Z' },
  { content: 'первая\\nстрока', at: '2026-11-25T10:00:00.000Z' },
];

describe('EditHistoryView', () => {
  it('says it loads, then lists the current text first and the earlier ones newest first', () => {
    const props = { error: null, onRetry: vi.fn(), onClose: vi.fn() };
    const { rerender } = render(<EditHistoryView {...props} versions={null} />);
    expect(screen.getByRole('status')).toHaveTextContent('Загружаем…');
    rerender(<EditHistoryView {...props} versions={versions} />);
    const dialog = screen.getByRole('dialog', { name: 'История изменений' });
    const items = within(dialog).getAllByTestId('edit-version');
    expect(items.map((i) => i.querySelector('p')?.textContent)).toEqual(['третья', 'вторая', 'первая\\nстрока']);
    expect(items[0]).toHaveTextContent('текущая версия');
    expect(items[1]).not.toHaveTextContent('текущая версия');
  });

  it('shows the failure with «Повторить»', () => {
    const onRetry = vi.fn();
    render(<EditHistoryView versions={null} error="Сообщение не найдено" onRetry={onRetry} onClose={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Сообщение не найдено');
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
