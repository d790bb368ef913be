// The «Статус» dialog and the settings section rendered from props (docs/behaviour.md §10.44).
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CustomStatusDialogView } from './CustomStatusDialog';
import { untilText } from './CustomStatusSection';
import type { CustomStatusDialogView as View } from './useCustomStatus';

const props = (extra: Partial<View> = {}): View & { onClose(): void } => ({
  hasCurrent: false,
  emoji: '',
  text: '',
  clearAfter: 'today',
  error: null,
  busy: false,
  onEmoji: vi.fn(),
  onText: vi.fn(),
  onClearAfter: vi.fn(),
  onSave: vi.fn(),
  onClear: vi.fn(),
  onClose: vi.fn(),
  ...extra,
});

describe('«Статус»', () => {
  it('offers the emoji, the text with its count and the six «Сбросить через»; each control tells its actor', async () => {
    const p = props({ emoji: '🌴', text: 'В отпуске' });
    render(<CustomStatusDialogView {...p} />);
    const dialog = screen.getByRole('dialog', { name: 'Статус' });
    expect(within(dialog).getByRole('button', { name: '🌴' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(dialog).getByText('9 из 80')).toBeInTheDocument();
    const after = within(dialog).getByLabelText('Сбросить через');
    expect(
      within(after)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['30 минут', '1 час', '4 часа', 'Сегодня', 'Неделю', 'Не сбрасывать']);
    expect(within(dialog).queryByRole('button', { name: 'Сбросить' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: '🎧' }));
    await userEvent.type(within(dialog).getByLabelText('Что у вас'), '!');
    await userEvent.selectOptions(after, '1h');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(p.onEmoji).toHaveBeenCalledWith('🎧');
    expect(p.onText).toHaveBeenCalledWith('В отпуске!');
    expect(p.onClearAfter).toHaveBeenCalledWith('1h');
    expect(p.onSave).toHaveBeenCalledOnce();
  });

  it('«Сбросить» with a status set; the refusal in the server’s words; locked while busy', async () => {
    const p = props({ hasCurrent: true, error: 'Текст статуса — не длиннее 80 символов' });
    const { unmount } = render(<CustomStatusDialogView {...p} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Текст статуса — не длиннее 80 символов');
    await userEvent.click(screen.getByRole('button', { name: 'Сбросить' }));
    expect(p.onClear).toHaveBeenCalledOnce();
    unmount();
    render(<CustomStatusDialogView {...props({ hasCurrent: true, busy: true })} />);
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Сбросить' })).toBeDisabled();
  });

  it('says until when: the time today, the day and time later, nothing for «Не сбрасывать»', () => {
    const now = new Date(2026, 2, 2, 10, 0).getTime();
    expect(untilText(new Date(2026, 2, 2, 18, 30).toISOString(), now)).toBe('до 18:30');
    expect(untilText(new Date(2026, 2, 9, 10, 0).toISOString(), now)).toBe('до 9 марта, 10:00');
    expect(untilText(null, now)).toBe('');
  });
});
