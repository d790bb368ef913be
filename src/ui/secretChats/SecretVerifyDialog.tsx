// «Проверить шифрование» (docs/behaviour.md §10.21): the fingerprint of the secret chat's members' keys — 12 groups
// of 5 digits and 8 emoji — what comparing it means, and each member's devices. Renders from props (useSecretVerify).
import { Modal } from '../shared/Modal';
import { useSecretVerify, VERIFY_EXPLANATION } from './useSecretVerify';
import './secret-verify.css';

export interface SecretVerifyDialogProps {
  userId: string;
  conversationId: string;
  /** Display names by user id (the chat's participants). */
  names: Map<string, string>;
  onClose(): void;
}

export function SecretVerifyDialog(props: SecretVerifyDialogProps) {
  return <SecretVerifyView {...useSecretVerify(props)} />;
}

export function SecretVerifyView(props: ReturnType<typeof useSecretVerify>) {
  return (
    <Modal title="Проверить шифрование" onClose={props.onClose} className="group-modal">
      <div className="form secret-verify">
        {props.digits && props.emoji ? (
          <>
            <p className="secret-verify-emoji" data-testid="fingerprint-emoji">
              {props.emoji.join(' ')}
            </p>
            <p className="secret-verify-digits" data-testid="fingerprint-digits">
              {props.digits.map((g, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the groups are a fixed row; equal groups may repeat
                <span key={i}>{g}</span>
              ))}
            </p>
            <p className="muted">{VERIFY_EXPLANATION}</p>
            <h3 className="section-title">Устройства участников</h3>
            <ul className="secret-verify-devices" data-testid="fingerprint-devices">
              {props.devices.map((d) => (
                <li key={d.userId}>
                  <span className="person-name">{d.name}</span>: {d.devices}
                </li>
              ))}
            </ul>
          </>
        ) : props.error ? (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        ) : (
          <p className="muted">Вычисляется…</p>
        )}
        <div className="dialog-actions">
          {props.error && (
            <button type="button" className="button ghost" onClick={props.onRetry}>
              Повторить
            </button>
          )}
          <button type="button" className="button primary" onClick={props.onClose}>
            Закрыть
          </button>
        </div>
      </div>
    </Modal>
  );
}
