// A line under a secret chat's header while this device cannot take part yet (or any more), and a toast when an
// edit or a reaction could not be sent: see useSecretChatNotice. Nothing otherwise, and nothing in a chat that is
// not secret.
import { useSecretChatNotice } from './useSecretChatNotice';
import '../shared/toast.css';
import './secret-notice.css';

export interface SecretChatNoticeProps {
  conversationId: string;
  /** The members' display names by id. */
  names?: Readonly<Record<string, string>>;
}

export function SecretChatNotice(props: SecretChatNoticeProps) {
  const view = useSecretChatNotice(props.conversationId, props.names);
  return (
    <SecretChatNoticeView
      notice={view.notice}
      absent={view.absent}
      changed={view.changed}
      failure={view.failure}
      onDismiss={view.dismiss}
    />
  );
}

export function SecretChatNoticeView(props: {
  notice: string | null;
  absent?: string[];
  changed?: string[];
  failure: string | null;
  onDismiss(): void;
}) {
  return (
    <>
      {props.changed?.map((line) => (
        <p key={line} className="secret-identity-alert" role="alert" data-testid="identity-changed-notice">
          {line}
        </p>
      ))}
      {props.absent?.map((line) => (
        <p key={line} className="conv-note secret-notice" role="status">
          {line}
        </p>
      ))}
      {props.notice && (
        <p className="conv-note secret-notice" role="status">
          {props.notice}
        </p>
      )}
      {props.failure && (
        <div className="toast" role="alert">
          {props.failure}
          <button type="button" className="toast-action" onClick={props.onDismiss}>
            Закрыть
          </button>
        </div>
      )}
    </>
  );
}
