// An ENCRYPTED message's text as this device reads it (docs/secret-chats.md "In the app"): the text decrypted (or
// kept when sent) with the message it answers, «Расшифровывается…» meanwhile, or the notice that this device
// cannot read it.
import { READING_NOTICE, UNREADABLE_NOTICE } from '../machines/secretDevice/secretDevice.protocol';
import { useEncryptedText } from './useEncryptedText';

export interface EncryptedTextProps {
  conversationId: string;
  messageId: string;
  ciphertext: string;
  /** The server's time of the message (the local search index orders by it). */
  createdAt?: string;
}

export function EncryptedText(props: EncryptedTextProps) {
  const { known, reply } = useEncryptedText(props.conversationId, props.messageId, props.ciphertext, props.createdAt);
  return (
    <EncryptedTextView
      text={known.status === 'text' ? known.text : null}
      reply={reply}
      unreadable={known.status === 'unreadable'}
    />
  );
}

export function EncryptedTextView(props: { text: string | null; reply: string | null; unreadable: boolean }) {
  if (props.text === null)
    return <p className="msg-text msg-secret-note">{props.unreadable ? UNREADABLE_NOTICE : READING_NOTICE}</p>;
  return (
    <>
      {props.reply !== null && (
        <span className="msg-reply">
          <span className="msg-reply-label">Ответ на:</span> <span className="msg-reply-text">{props.reply}</span>
        </span>
      )}
      <p className="msg-text">{props.text}</p>
    </>
  );
}
