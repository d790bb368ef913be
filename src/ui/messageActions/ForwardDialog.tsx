// «Переслать» (docs/behaviour.md §10.19): the chats, then the people one may write to who have no chat yet, with a
// search field and checkboxes, and «Переслать» for the chosen ones. Its actor (forwardPicker) lives while the dialog
// is open; so does the directory's, whose people show when the administrator turned it on.
import { useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import type { ConversationEntry } from '../../contract/entities';
import type { AvatarView } from '../../contract/format';
import { LIMITS } from '../../contract/limits';
import { useSystemActor } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';
import { useDirectory } from '../directory/index';
import { ChatAvatar } from '../shared/ChatAvatar';
import { Modal } from '../shared/Modal';
import { UserAvatar } from '../shared/UserAvatar';
import { forwardPeople } from './forward-people';
import './message-actions.css';

export interface ForwardTarget {
  id: string;
  title: string;
  avatar: AvatarView;
}

export interface ForwardDialogProps {
  me: string;
  messageIds: string[];
  /** The chats one may forward to (not secret ones: their messages are the devices' own). */
  chats: ForwardTarget[];
  /** The list's entries: whom one already has a direct chat with, and the members of one's groups. */
  entries: readonly ConversationEntry[];
  onClose(): void;
}

const NONE: string[] = [];
const NO_CONTACTS: never[] = [];
const NONE_USERS: never[] = [];

export function ForwardDialog(props: ForwardDialogProps) {
  const actor = useOwnedActor('forwardPicker', { messageIds: props.messageIds });
  const query = useSelector(actor, (s) => s?.context.query ?? '');
  const chosen = useSelector(actor, (s) => s?.context.chosen ?? NONE);
  const chosenPeople = useSelector(actor, (s) => s?.context.people ?? NONE);
  const contacts = useSelector(useSystemActor('contacts'), (s) => s?.context.contacts ?? NO_CONTACTS);
  const directory = useDirectory();
  const directoryUsers = directory.shown ? directory.users : NONE_USERS;
  const people = useMemo(
    () =>
      forwardPeople(
        props.me,
        props.entries,
        contacts.filter((c) => c.status === 'ACCEPTED').map((c) => c.friend),
        directoryUsers,
      ),
    [props.me, props.entries, contacts, directoryUsers],
  );
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const done = useSelector(actor, (s) => s?.hasTag('done') ?? false);
  const { onClose } = props;
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);
  const q = query.trim().toLocaleLowerCase('ru');
  const shown = q ? props.chats.filter((c) => c.title.toLocaleLowerCase('ru').includes(q)) : props.chats;
  // The directory is searched on the server (by name, @username or EBLID); the others here.
  const shownPeople = q
    ? people.filter(
        (u) =>
          directoryUsers.some((d) => d.id === u.id) ||
          u.displayName.toLocaleLowerCase('ru').includes(q) ||
          u.username.toLocaleLowerCase('ru').includes(q),
      )
    : people;
  const full = chosen.length + chosenPeople.length >= LIMITS.forwardTargetsMax;
  const count = props.messageIds.length;
  return (
    <Modal title={count > 1 ? `Переслать сообщения (${count})` : 'Переслать сообщение'} onClose={onClose}>
      <input
        className="input forward-search"
        type="search"
        placeholder="Поиск чата"
        aria-label="Поиск чата"
        value={query}
        onChange={(e) => {
          actor.send({ type: 'forward.query', query: e.target.value });
          if (directory.shown) directory.onSearch(e.target.value);
        }}
      />
      <ul className="forward-list" aria-label="Чаты">
        {shown.map((c) => (
          <li key={c.id}>
            <label className="forward-item">
              <input
                type="checkbox"
                checked={chosen.includes(c.id)}
                disabled={busy || (!chosen.includes(c.id) && full)}
                onChange={() => actor.send({ type: 'forward.toggle', conversationId: c.id })}
              />
              <ChatAvatar avatar={c.avatar} size={32} />
              <span className="forward-title">{c.title}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && shownPeople.length === 0 && <li className="forward-empty">Чаты не найдены</li>}
      </ul>
      {shownPeople.length > 0 && (
        <>
          <h3 className="forward-heading">Люди</h3>
          <ul className="forward-list" aria-label="Люди">
            {shownPeople.map((u) => (
              <li key={u.id}>
                <label className="forward-item">
                  <input
                    type="checkbox"
                    checked={chosenPeople.includes(u.id)}
                    disabled={busy || (!chosenPeople.includes(u.id) && full)}
                    onChange={() => actor.send({ type: 'forward.togglePerson', userId: u.id })}
                  />
                  <UserAvatar user={u} size={32} />
                  <span className="forward-title">{u.displayName}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
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
          disabled={busy || chosen.length + chosenPeople.length === 0}
          onClick={() => actor.send({ type: 'forward.send' })}
        >
          {chosen.length + chosenPeople.length > 1 ? `Переслать (${chosen.length + chosenPeople.length})` : 'Переслать'}
        </button>
      </div>
    </Modal>
  );
}
