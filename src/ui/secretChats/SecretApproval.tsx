// A new device of this person asks for the identity key (docs/behaviour.md §10.35): «Новое устройство входит в
// секретные чаты: подтвердить?» with the code the new device shows, as a notice that leaves the page usable; and, on
// a device that waits for such an approval, its own code. Renders from props (useSecretApproval).
import { useState } from 'react';
import { APPROVAL_QUESTION } from '../../machines/secretChats/secretApproval/secretApproval.protocol';
import { ENTER_RECOVERY_KEY } from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { RecoveryDialog } from './RecoveryDialog';
import { useSecretApproval } from './useSecretApproval';
import './secret-approval.css';

export function SecretApproval(props: { userId: string }) {
  return <SecretApprovalView {...useSecretApproval(props.userId)} />;
}

export function SecretApprovalView(props: ReturnType<typeof useSecretApproval>) {
  // Without an old device at hand, the recovery key brings the identity key too.
  const [recovering, setRecovering] = useState(false);
  const recover = (
    <button type="button" className="button ghost small" onClick={() => setRecovering(true)}>
      {ENTER_RECOVERY_KEY}
    </button>
  );
  return (
    <>
      {props.waiting && (
        <p className="secret-approval-waiting" role="status" data-testid="secret-approval-waiting">
          {props.waiting} {recover}
        </p>
      )}
      {props.declined && (
        <div className="secret-approval-waiting" role="alert" data-testid="secret-approval-declined">
          <p>{props.declined}</p>
          {props.error && <p className="inline-error">{props.error}</p>}
          <div className="dialog-actions">
            {recover}
            <button type="button" className="button ghost small" onClick={props.onAskAgain} disabled={props.busy}>
              Попросить ещё раз
            </button>
            <button type="button" className="button ghost small" onClick={props.onReset} disabled={props.busy}>
              Начать заново
            </button>
          </div>
        </div>
      )}
      {recovering && props.userId && (
        <RecoveryDialog userId={props.userId} mode="restore" onClose={() => setRecovering(false)} />
      )}
      {props.asking && (
        // A notice, not a modal: the page stays usable; it waits for an answer while the new device shows its code.
        <section
          className="secret-approval-ask"
          aria-labelledby="secret-approval-title"
          aria-live="polite"
          data-testid="secret-approval-ask"
        >
          <h2 id="secret-approval-title" className="secret-approval-title">
            Новое устройство
          </h2>
          <p>{APPROVAL_QUESTION}</p>
          <p>
            Код на новом устройстве должен быть таким же:{' '}
            <strong data-testid="secret-approval-code">{props.code}</strong>
          </p>
          <p className="secret-approval-note">
            Подтверждайте, только если это ваше устройство и коды совпадают: оно получит ключ вашей личности и будет
            читать новые сообщения ваших секретных чатов.
          </p>
          {props.error && (
            <p className="inline-error" role="alert">
              {props.error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button ghost" onClick={props.onDecline} disabled={props.busy}>
              Отклонить
            </button>
            <button
              type="button"
              className="button primary"
              onClick={props.error ? props.onRetry : props.onConfirm}
              disabled={props.busy}
            >
              Подтвердить
            </button>
          </div>
        </section>
      )}
    </>
  );
}
