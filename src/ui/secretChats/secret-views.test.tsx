// The secret chats' views from props: an ENCRYPTED message's text, its reply, and the notices.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  noDeviceNotice,
  SECRET_EDIT_FAILED,
  shownText,
} from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { EncryptedTextView } from './EncryptedText';
import { SecretChatNoticeView } from './SecretChatNotice';
import { WAITING_NOTICE } from './useSecretChatNotice';

describe('EncryptedTextView', () => {
  it('shows the text with the message it answers', () => {
    render(<EncryptedTextView text="да, в семь" reply="Встречаемся?" unreadable={false} />);
    expect(screen.getByText('да, в семь')).toBeTruthy();
    expect(screen.getByText('Встречаемся?')).toBeTruthy();
  });

  it('says it is decrypting, or that this device cannot read the message', () => {
    const { rerender } = render(<EncryptedTextView text={null} reply={null} unreadable={false} />);
    expect(screen.getByText('Расшифровывается…')).toBeTruthy();
    rerender(<EncryptedTextView text={null} reply={null} unreadable />);
    expect(screen.getByText('Сообщения, отправленные до входа на этом устройстве, недоступны')).toBeTruthy();
    rerender(<EncryptedTextView text={null} reply={null} unreadable={false} forged />);
    expect(screen.getByRole('status').textContent).toBe('Сообщение не прошло проверку');
  });
});

describe('shownText', () => {
  it('shows a text under the sender MLS authenticated, never under another (a copy filling someone else’s message)', () => {
    const text = { status: 'text' as const, text: 'привет', replyToId: null, from: 'anna' };
    expect(shownText(text, 'anna')).toBe(text);
    expect(shownText(text, 'boris')).toEqual({ status: 'forged' });
    // Texts kept before the sender was recorded, and messages still being read, are as they were.
    const older = { status: 'text' as const, text: 'привет', replyToId: null };
    expect(shownText(older, 'boris')).toBe(older);
    expect(shownText({ status: 'reading' }, 'boris')).toEqual({ status: 'reading' });
  });
});

describe('SecretChatNoticeView', () => {
  it('names each member who has no device yet', () => {
    render(
      <SecretChatNoticeView
        notice={null}
        absent={[noDeviceNotice('Борис')]}
        failure={null}
        onDismiss={() => undefined}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Борис ещё не открывал Беседу в браузере — он получит сообщения, когда войдёт',
    );
  });

  it('shows the chat’s line, and an edit that was not sent as an alert until «Закрыть»', () => {
    const closed: string[] = [];
    const { rerender } = render(
      <SecretChatNoticeView notice={WAITING_NOTICE} failure={null} onDismiss={() => closed.push('x')} />,
    );
    expect(screen.getByRole('status').textContent).toBe(WAITING_NOTICE);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<SecretChatNoticeView notice={null} failure={SECRET_EDIT_FAILED} onDismiss={() => closed.push('x')} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Не удалось изменить сообщение');
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(closed).toEqual(['x']);
  });
});
