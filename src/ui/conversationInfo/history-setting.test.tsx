import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HistorySetting, SecretHistoryNote } from './HistorySetting';

const props = (over: Partial<Parameters<typeof HistorySetting>[0]> = {}) => ({
  visible: true,
  saving: false,
  error: null,
  onSet: vi.fn(),
  onDismiss: vi.fn(),
  ...over,
});

describe('«История для новых участников» view', () => {
  it('shows the group’s choice and asks for the other one', () => {
    const p = props();
    render(<HistorySetting {...p} />);
    expect(screen.getByRole('group', { name: 'История для новых участников' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Видна/ })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: /Скрыта/ }));
    expect(p.onSet).toHaveBeenCalledWith(false);
  });

  it('is disabled while saving and says what went wrong', () => {
    const p = props({ visible: false, saving: true, error: 'Это могут только владелец и администраторы группы' });
    render(<HistorySetting {...p} />);
    expect(screen.getByRole('radio', { name: /Скрыта/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Видна/ })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Это могут только владелец и администраторы группы');
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(p.onDismiss).toHaveBeenCalled();
  });
});

describe('a secret group', () => {
  it('says why there is nothing to choose', () => {
    render(<SecretHistoryNote />);
    expect(screen.getByText('В секретных чатах новые участники видят только сообщения после вступления')).toBeVisible();
  });
});
