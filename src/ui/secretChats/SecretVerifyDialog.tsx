// «Проверить шифрование» (docs/behaviour.md §10.21): the fingerprint of the secret chat's members' keys — 12 groups
// of 5 digits and 8 emoji — what comparing it means, and each member's devices. Renders from props (useSecretVerify).
import { Modal } from '../shared/Modal';
import { changedKeyText, SAFETY_EXPLANATION, useSecretVerify, VERIFY_EXPLANATION } from './useSecretVerify';
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
        {props.people.map((p) => (
          <section key={p.userId} className="secret-safety" data-testid="safety-number" data-user={p.userId}>
            <h3 className="section-title">
              Числа безопасности: <span className="person-name">{p.name}</span>
              {p.verified && <span className="secret-safety-verified"> — проверен</span>}
            </h3>
            {p.changed && (
              <p className="inline-error secret-safety-changed" role="alert" data-testid="identity-changed">
                {changedKeyText(p.name)}
              </p>
            )}
            <p className="secret-verify-digits" data-testid="safety-digits">
              {p.digits.map((g, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the groups are a fixed row; equal groups may repeat
                <span key={i}>{g}</span>
              ))}
            </p>
            <img className="secret-safety-qr" src={p.qr} alt={`QR-код чисел безопасности: ${p.name}`} />
            <div className="dialog-actions">
              {p.changed ? (
                <button
                  type="button"
                  className="button ghost"
                  onClick={() => props.onAcknowledge(p.userId)}
                  disabled={props.busy}
                >
                  Принять новый ключ
                </button>
              ) : (
                <button
                  type="button"
                  className="button ghost"
                  onClick={() => props.onMark(p.userId, !p.verified)}
                  disabled={props.busy}
                >
                  {p.verified ? 'Снять отметку о проверке' : 'Отметить как проверенного'}
                </button>
              )}
            </div>
          </section>
        ))}
        {props.people.length > 0 && <p className="muted">{SAFETY_EXPLANATION}</p>}
        {props.digits && props.emoji ? (
          <>
            <h3 className="section-title">Отпечаток устройств чата</h3>
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
