// «Переслать» (docs/behaviour.md §10.19): the chats with a search field and checkboxes, and «Переслать» for the chosen
// ones. Its actor (forwardPicker) lives while the dialog is open.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { LIMITS } from '../../contract/limits';
import { useOwnedActor } from '../app/useOwnedActor';
import { ChatAvatar } from '../shared/ChatAvatar';
import type { AvatarView } from '../../contract/format';
import { Modal } from '../shared/Modal';
import './message-actions.css';

export interface ForwardTarget {
  id: string;
  title: string;
  avatar: AvatarView;
}

export interface ForwardDialogProps {
  messageIds: string[];
  chats: ForwardTarget[];
  onClose(): void;
}

const NONE: string[] = [];

export function ForwardDialog(props: ForwardDialogProps) {
  const actor = useOwnedActor('forwardPicker', { messageIds: props.messageIds });
  const query = useSelector(actor, (s) => s?.context.query ?? '');
  const chosen = useSelector(actor, (s) => s?.context.chosen ?? NONE);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const done = useSelector(actor, (s) => s?.hasTag('done') ?? false);
  const { onClose } = props;
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);
  const q = query.trim().toLocaleLowerCase('ru');
  const shown = q ? props.chats.filter((c) => c.title.toLocaleLowerCase('ru').includes(q)) : props.chats;
  const count = props.messageIds.length;
  return (
    <Modal title={count > 1 ? `Переслать сообщения (${count})` : 'Переслать сообщение'} onClose={onClose}>
      <input
        className="input forward-search"
        type="search"
        placeholder="Поиск чата"
        aria-label="Поиск чата"
        value={query}
        onChange={(e) => actor.send({ type: 'forward.query', query: e.target.value })}
      />
      <ul className="forward-list" aria-label="Чаты">
        {shown.map((c) => (
          <li key={c.id}>
            <label className="forward-item">
              <input
                type="checkbox"
                checked={chosen.includes(c.id)}
                disabled={busy || (!chosen.includes(c.id) && chosen.length >= LIMITS.forwardTargetsMax)}
                onChange={() => actor.send({ type: 'forward.toggle', conversationId: c.id })}
              />
              <ChatAvatar avatar={c.avatar} size={32} />
              <span className="forward-title">{c.title}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="forward-empty">Чаты не найдены</li>}
      </ul>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Отмена
        </button>
        <button
          type="button"
          className="button"
          disabled={busy || chosen.length === 0}
          onClick={() => actor.send({ type: 'forward.send' })}
        >
          {chosen.length > 1 ? `Переслать (${chosen.length})` : 'Переслать'}
        </button>
      </div>
    </Modal>
  );
}
