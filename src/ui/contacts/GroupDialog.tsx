// The group dialog 'Создать групповой чат' (docs/behaviour.md §2, §5): optional 'Название', friends to tick (each
// row a checkbox reading 'Выбрано' or 'Нажмите, чтобы выбрать'), 'Отмена' and 'Создать'.
import type { FormEvent, ReactNode } from 'react';
import { LIMITS } from '../../contract/limits';
import { LazyDirectoryPicker } from '../directory/index';
import { MemberPicker } from '../shared/MemberPicker';
import { Modal } from '../shared/Modal';
import type { GroupDialogView } from './useGroupDialog';
import './contacts.css';

export type GroupDialogProps = Omit<GroupDialogView, 'open' | 'onOpen'> & {
  /** «Люди» from the directory, when the administrator keeps it on (docs/behaviour.md §10.25). */
  people?: ReactNode;
};

/** The dialog with «Люди» beside the friends. */
export function ConnectedGroupDialog(props: GroupDialogProps) {
  const friendIds = new Set(props.friends.map((f) => f.id));
  return (
    <GroupDialog
      {...props}
      people={<LazyDirectoryPicker selected={props.selected} onToggle={props.onToggle} exclude={friendIds} />}
    />
  );
}

export function GroupDialog(props: GroupDialogProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onCreate();
  };
  return (
    <Modal title="Создать групповой чат" onClose={props.onClose} className="group-modal">
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Название</span>
          <input value={props.title} maxLength={LIMITS.groupTitleMax} onChange={(e) => props.onTitle(e.target.value)} />
        </label>
        <MemberPicker friends={props.friends} selected={props.selected} onToggle={props.onToggle} />
        {props.people}
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={props.onClose}>
            Отмена
          </button>
          <button type="submit" className="button primary" disabled={props.busy}>
            Создать
          </button>
        </div>
      </form>
    </Modal>
  );
}
