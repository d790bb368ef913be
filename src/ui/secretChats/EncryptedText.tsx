// An ENCRYPTED message's text as this device reads it (docs/secret-chats.md "In the app"): the text decrypted (or
// kept when sent) with the message it answers and its files, «Расшифровывается…» meanwhile, or the notice that
// this device cannot read it.
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import {
  FORGED_NOTICE,
  READING_NOTICE,
  UNREADABLE_NOTICE,
} from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { RecoverButton } from './RecoverButton';
import { SecretAttachments, type VoicePlayerView } from './SecretAttachments';
import { useEncryptedText } from './useEncryptedText';

export interface EncryptedTextProps {
  conversationId: string;
  messageId: string;
  ciphertext: string;
  /** How a voice message plays (the conversation's player). */
  voicePlayer?: VoicePlayerView;
  /** The server's time of the message (the local search index orders by it). */
  createdAt?: string;
  /** Its sender as the server names it. */
  senderId?: string;
  /** Opens its `index`-th picture in the conversation's lightbox. */
  onOpenImage?: (index: number) => void;
}

export function EncryptedText(props: EncryptedTextProps) {
  const { known, reply } = useEncryptedText(
    props.conversationId,
    props.messageId,
    props.ciphertext,
    props.createdAt,
    props.senderId,
  );
  return (
    <>
      <EncryptedTextView
        text={known.status === 'text' ? known.text : null}
        reply={reply}
        unreadable={known.status === 'unreadable'}
        forged={known.status === 'forged'}
        attachments={known.status === 'text' ? (known.attachments ?? []) : []}
        voicePlayer={props.voicePlayer}
        onOpenImage={props.onOpenImage}
      />
      <RecoverButton show={known.status === 'unreadable'} />
    </>
  );
}

export function EncryptedTextView(props: {
  text: string | null;
  reply: string | null;
  unreadable: boolean;
  /** Not from the sender the server names (MLS says otherwise). */
  forged?: boolean;
  attachments?: SecretAttachment[];
  voicePlayer?: VoicePlayerView;
  onOpenImage?: (index: number) => void;
}) {
  if (props.text === null)
    return (
      <p className="msg-text msg-secret-note" {...(props.forged ? { role: 'status' } : {})}>
        {props.forged ? FORGED_NOTICE : props.unreadable ? UNREADABLE_NOTICE : READING_NOTICE}
      </p>
    );
  return (
    <>
      {props.reply !== null && (
        <span className="msg-reply">
          <span className="msg-reply-label">Ответ на:</span> <span className="msg-reply-text">{props.reply}</span>
        </span>
      )}
      {props.attachments?.length ? (
        <SecretAttachments
          attachments={props.attachments}
          voicePlayer={props.voicePlayer}
          onOpenImage={props.onOpenImage}
        />
      ) : null}
      {(props.text !== '' || !props.attachments?.length) && <p className="msg-text">{props.text}</p>}
    </>
  );
}
