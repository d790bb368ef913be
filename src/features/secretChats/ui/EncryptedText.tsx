// An ENCRYPTED message's text as this device reads it (docs/secret-chats.md "The views"): the text decrypted (or
// kept when sent), «Расшифровывается…» meanwhile, or the notice that this device cannot read it.
import { READING_NOTICE, UNREADABLE_NOTICE } from '../machines/secretDevice/secretDevice.protocol';
import { useEncryptedText } from './useEncryptedText';

export function EncryptedText(props: { conversationId: string; messageId: string; ciphertext: string }) {
  const t = useEncryptedText(props.conversationId, props.messageId, props.ciphertext);
  return <EncryptedTextView text={t.status === 'text' ? t.text : null} unreadable={t.status === 'unreadable'} />;
}

export function EncryptedTextView(props: { text: string | null; unreadable: boolean }) {
  if (props.text !== null) return <p className="msg-text">{props.text}</p>;
  return <p className="msg-text msg-secret-note">{props.unreadable ? UNREADABLE_NOTICE : READING_NOTICE}</p>;
}
