// A secret chat's tile preview (docs/behaviour.md §10.21): the latest message's text on one line once this device
// has read it, else what the tile says without it («Зашифрованное сообщение»).
import { useSecretTilePreview } from './useSecretTilePreview';

export interface SecretTilePreviewProps {
  conversationId: string;
  messageId: string;
  ciphertext: string;
  createdAt?: string;
  /** The sender the server names (a text MLS says someone else wrote is not shown). */
  senderId?: string;
  fallback: string | null | undefined;
}

/** Characters kept (CSS cuts the line to the tile's width). */
const CHARS = 100;

export function SecretTilePreview(props: SecretTilePreviewProps) {
  const text = useSecretTilePreview(
    props.conversationId,
    props.messageId,
    props.ciphertext,
    props.createdAt,
    props.senderId,
  );
  if (text === null) return <>{props.fallback}</>;
  const flat = [...text.replace(/\s+/g, ' ').trim()];
  return <>{flat.length > CHARS ? `${flat.slice(0, CHARS - 1).join('')}…` : flat.join('')}</>;
}
