// The dialog «Новый секретный чат» (docs/behaviour.md §10.x Secret chats): what a secret chat is, friends to tick
// (one: a direct secret chat; several: a group with «Название»), «Отмена» and «Создать».
import type { FormEvent, ReactNode } from 'react';
import { LIMITS } from '../../contract/limits';
import { LazyDirectoryPicker } from '../directory/index';
import { MemberPicker } from '../shared/MemberPicker';
import { Modal } from '../shared/Modal';
import { useSecretDialog } from './useSecretDialog';

export const SECRET_EXPLANATION =
  'Сообщения шифруются на ваших устройствах; сервер хранит только шифротекст. Файлы, голосовые сообщения и звонки тоже шифруются.';

/** The history on a new device needs the recovery key (settings). */
export const RECOVERY_HINT =
  'Чтобы на новом устройстве читать сообщения, отправленные до входа на нём, создайте «Ключ восстановления» в настройках.';

export interface SecretDialogProps {
  userId: string;
  onClose(): void;
}

export function SecretDialog(props: SecretDialogProps) {
  const view = useSecretDialog(props.userId, props.onClose);
  const friendIds = new Set(view.friends.map((f) => f.id));
  return (
    <SecretDialogView
      {...view}
      people={<LazyDirectoryPicker selected={view.selected} onToggle={view.onToggle} exclude={friendIds} />}
    />
  );
}

export function SecretDialogView(
  props: ReturnType<typeof useSecretDialog> & {
    /** «Люди» from the directory, when the administrator keeps it on (docs/behaviour.md §10.25). */
    people?: ReactNode;
  },
) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onCreate();
  };
  const group = props.selected.length > 1;
  return (
    <Modal title="Новый секретный чат" onClose={props.onClose} className="group-modal">
      <form className="form" onSubmit={submit}>
        <p className="muted">{SECRET_EXPLANATION}</p>
        <p className="muted">{RECOVERY_HINT}</p>
        {group && (
          <label className="field">
            <span>Название</span>
            <input
              value={props.title}
              maxLength={LIMITS.groupTitleMax}
              onChange={(e) => props.onTitle(e.target.value)}
            />
          </label>
        )}
        <MemberPicker friends={props.friends} selected={props.selected} onToggle={props.onToggle} />
        {props.people}
        {(props.noDevice ?? props.error) && (
          <p className="inline-error" role="alert">
            {props.noDevice ?? props.error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={props.onClose}>
            Отмена
          </button>
          <button type="submit" className="button primary" disabled={props.busy || props.preparing}>
            {props.busy ? 'Создаётся…' : 'Создать'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
