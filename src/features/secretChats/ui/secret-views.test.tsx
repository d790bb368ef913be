// The secret chats' views from props: an ENCRYPTED message's text, its reply, and the notices.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EncryptedTextView } from './EncryptedText';

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
  });
});
