// The dialog «Ключ восстановления» from props: the phrase shown once, the field with its refusal, and the
// explanation for a person without a key.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RecoveryDialogView } from './RecoveryDialog';
import type { RecoveryDialogViewProps } from './useRecoveryDialog';

const base = (over: Partial<RecoveryDialogViewProps>): RecoveryDialogViewProps => ({
  mode: 'setup',
  step: 'idle',
  busy: false,
  hasKey: false,
  here: false,
  phrase: null,
  error: null,
  restored: null,
  onClose: vi.fn(),
  onCreate: vi.fn(),
  onSaved: vi.fn(),
  onEnter: vi.fn(),
  onSubmit: vi.fn(),
  onRemove: vi.fn(),
  onBack: vi.fn(),
  onRetry: vi.fn(),
  ...over,
});

describe('RecoveryDialogView', () => {
  it('shows the phrase with «Я сохранил ключ»', () => {
    const props = base({ step: 'phrase', phrase: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345-6789' });
    render(<RecoveryDialogView {...props} />);
    expect(screen.getByText('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345-6789')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Я сохранил ключ' }));
    expect(props.onSaved).toHaveBeenCalled();
  });

  it('takes a phrase and shows the refusal', () => {
    const props = base({ mode: 'restore', step: 'entering', hasKey: true, error: 'Неверный ключ восстановления' });
    render(<RecoveryDialogView {...props} />);
    expect(screen.getByRole('alert').textContent).toBe('Неверный ключ восстановления');
    fireEvent.change(screen.getByRole('textbox', { name: 'Ключ восстановления' }), { target: { value: 'abcd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Восстановить' }));
    expect(props.onSubmit).toHaveBeenCalledWith('abcd');
  });

  it('explains when there is no key to enter, and offers deletion when there is one', () => {
    const { unmount } = render(<RecoveryDialogView {...base({ mode: 'restore' })} />);
    expect(screen.getByText(/У вас нет ключа восстановления/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    unmount();
    const props = base({ hasKey: true, here: true });
    render(<RecoveryDialogView {...props} />);
    fireEvent.click(screen.getByRole('button', { name: 'Удалить ключ восстановления' }));
    expect(props.onRemove).toHaveBeenCalled();
  });
});
