// The dialog «Ключ восстановления» (docs/behaviour.md §10.21): from settings, the key's status with «Создать ключ»
// (the phrase shown once, «Я сохранил ключ») and «Удалить ключ восстановления»; from an unreadable secret message,
// the phrase to type («Неверный ключ восстановления» when it is not the key), or why there is none.
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../shared/Modal';
import {
  DELETE_RECOVERY_KEY,
  ENTER_RECOVERY_KEY,
  NO_RECOVERY_KEY,
  RECOVERY_EXPLANATION,
  RECOVERY_TITLE,
  SAVED_RECOVERY_KEY,
} from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { type RecoveryDialogViewProps, useRecoveryDialog } from './useRecoveryDialog';
import './recovery.css';

export interface RecoveryDialogProps {
  userId: string;
  mode: 'setup' | 'restore';
  onClose(): void;
}

export function RecoveryDialog(props: RecoveryDialogProps) {
  return <RecoveryDialogView {...useRecoveryDialog(props.userId, props.mode, props.onClose)} />;
}

const messagesText = (n: number) => {
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return `${n} сообщение`;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return `${n} сообщения`;
  return `${n} сообщений`;
};

export function RecoveryDialogView(props: RecoveryDialogViewProps) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit(typed);
  };
  const close = (
    <button type="button" className="button ghost" onClick={props.onClose}>
      Закрыть
    </button>
  );
  return (
    <Modal title={RECOVERY_TITLE} onClose={props.onClose} className="group-modal recovery-dialog">
      <div className="form" aria-busy={props.busy}>
        {props.step === 'busy' && !props.phrase && (
          <p className="muted" role="status">
            Подождите…
          </p>
        )}
        {props.step === 'idle' && props.mode === 'restore' && !props.hasKey && (
          <>
            <p className="muted">{NO_RECOVERY_KEY}</p>
            <div className="dialog-actions">{close}</div>
          </>
        )}
        {props.step === 'idle' && (props.mode === 'setup' || props.hasKey) && (
          <>
            <p className="muted">{RECOVERY_EXPLANATION}</p>
            <p role="status">
              {props.hasKey
                ? props.here
                  ? 'Ключ восстановления создан; это устройство сохраняет в резервную копию то, что читает и отправляет.'
                  : 'Ключ восстановления создан. Введите его, чтобы это устройство читало историю и сохраняло новые сообщения.'
                : 'Ключ восстановления не создан.'}
            </p>
            <div className="dialog-actions">
              {close}
              {props.hasKey && !props.here && (
                <button type="button" className="button" onClick={props.onEnter}>
                  {ENTER_RECOVERY_KEY}
                </button>
              )}
              {props.hasKey && (
                <button type="button" className="button danger" onClick={props.onRemove}>
                  {DELETE_RECOVERY_KEY}
                </button>
              )}
              <button type="button" className="button primary" onClick={props.onCreate}>
                {props.hasKey ? 'Создать новый ключ' : 'Создать ключ'}
              </button>
            </div>
          </>
        )}
        {props.phrase && (
          <>
            <p className="muted">
              Запишите ключ и храните его в надёжном месте: он показывается один раз. Без него историю на новом
              устройстве не восстановить.
            </p>
            <p className="recovery-phrase">
              <code>{props.phrase}</code>
            </p>
            <div className="dialog-actions">
              <button type="button" className="button ghost" disabled={props.busy} onClick={props.onBack}>
                Отмена
              </button>
              <button type="button" className="button primary" disabled={props.busy} onClick={props.onSaved}>
                {props.busy ? 'Сохраняется…' : SAVED_RECOVERY_KEY}
              </button>
            </div>
          </>
        )}
        {props.step === 'entering' && (
          <form className="form" onSubmit={submit}>
            <div className="field">
              <label htmlFor={inputId}>{RECOVERY_TITLE}</label>
              <input
                id={inputId}
                autoComplete="off"
                spellCheck={false}
                placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX"
                value={typed}
                disabled={props.busy}
                onChange={(e) => setTyped(e.target.value)}
              />
            </div>
            {props.error && (
              <p className="inline-error" role="alert">
                {props.error}
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" className="button ghost" disabled={props.busy} onClick={props.onBack}>
                Отмена
              </button>
              <button type="submit" className="button primary" disabled={props.busy}>
                {props.busy ? 'Восстанавливается…' : 'Восстановить'}
              </button>
            </div>
          </form>
        )}
        {props.step === 'failed' && (
          <>
            <p className="inline-error" role="alert">
              {props.error}
            </p>
            <div className="dialog-actions">
              {close}
              <button type="button" className="button primary" onClick={props.onRetry}>
                Повторить
              </button>
            </div>
          </>
        )}
        {props.step === 'done' && (
          <>
            <p className="inline-note" role="status">
              {props.restored !== null
                ? `История восстановлена: ${messagesText(props.restored)}.`
                : 'Ключ восстановления сохранён: история секретных чатов хранится на сервере зашифрованной.'}
            </p>
            <div className="dialog-actions">
              <button type="button" className="button primary" onClick={props.onClose}>
                Готово
              </button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
