// The identity keys' views from props (docs/behaviour.md §10.35): the approval of a new device with its code, this
// device's own waiting line, a changed identity key in red under the chat's header, and safety numbers as QR codes.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { identityChangedNotice } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { SecretApprovalView } from './SecretApproval';
import { SecretChatNoticeView } from './SecretChatNotice';
import { safetyQr } from './useSecretVerify';

const approval = {
  asking: true,
  busy: false,
  code: '123 456',
  error: null,
  waiting: null,
  declined: null,
  userId: 'u1',
  onAskAgain: vi.fn(),
  onReset: vi.fn(),
  onConfirm: vi.fn(),
  onDecline: vi.fn(),
  onRetry: vi.fn(),
};

describe('SecretApprovalView', () => {
  it('asks to approve a new device with its code in a notice that blocks nothing, and answers with «Подтвердить» or «Отклонить»', () => {
    render(<SecretApprovalView {...approval} />);
    expect(screen.getByRole('region', { name: 'Новое устройство' })).toBeTruthy();
    // Not a modal: no dialog traps the page.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Новое устройство входит в секретные чаты: подтвердить?')).toBeTruthy();
    expect(screen.getByTestId('secret-approval-code').textContent).toBe('123 456');
    fireEvent.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(approval.onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Отклонить' }));
    expect(approval.onDecline).toHaveBeenCalledTimes(1);
  });

  it('after a failure shows it and tries again; a waiting device shows only its own code', () => {
    const { rerender } = render(<SecretApprovalView {...approval} error="Подпись не сделана ключом личности" />);
    expect(screen.getByRole('alert').textContent).toBe('Подпись не сделана ключом личности');
    fireEvent.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(approval.onRetry).toHaveBeenCalledTimes(1);
    rerender(<SecretApprovalView {...approval} asking={false} waiting="Подтвердите вход… Код: 654 321" />);
    expect(screen.queryByRole('region', { name: 'Новое устройство' })).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('654 321');
    expect(screen.getByRole('button', { name: 'Ввести ключ восстановления' })).toBeTruthy();
  });

  it('a declined device says so and offers the recovery key, another try or a reset', () => {
    render(<SecretApprovalView {...approval} asking={false} declined="Вход в секретные чаты отклонён" />);
    expect(screen.getByRole('alert').textContent).toContain('Вход в секретные чаты отклонён');
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('button', { name: 'Ввести ключ восстановления' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Попросить ещё раз' }));
    expect(approval.onAskAgain).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Начать заново' }));
    expect(approval.onReset).toHaveBeenCalledTimes(1);
  });
});

describe('a changed identity key under the chat’s header', () => {
  it('is an alert naming the person', () => {
    render(
      <SecretChatNoticeView
        notice={null}
        changed={[identityChangedNotice('Борис')]}
        failure={null}
        onDismiss={() => {}}
      />,
    );
    const line = screen.getByRole('alert');
    expect(line.textContent).toMatch(/^Борис: ключ личности сменился/);
    expect(line.className).toContain('secret-identity-alert');
  });
});

describe('safetyQr', () => {
  it('draws the digits as a QR code (a GIF data URL), another one for other digits', () => {
    const digits = Array(12).fill('12345');
    const qr = safetyQr(digits);
    expect(qr).toMatch(/^data:image\/gif;base64,/);
    expect(safetyQr(digits)).toBe(qr);
    expect(safetyQr(Array(12).fill('54321'))).not.toBe(qr);
  });
});
