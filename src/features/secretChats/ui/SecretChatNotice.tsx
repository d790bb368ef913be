// A line under a secret chat's header while this device cannot take part yet (or any more): see
// useSecretChatNotice. Nothing otherwise, and nothing in a chat that is not secret.
import { useSecretChatNotice } from './useSecretChatNotice';

export function SecretChatNotice(props: { conversationId: string }) {
  const notice = useSecretChatNotice(props.conversationId);
  return notice ? (
    <p className="conv-note secret-notice" role="status">
      {notice}
    </p>
  ) : null;
}
