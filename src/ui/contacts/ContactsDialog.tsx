// The contacts dialog 'Контакты' (docs/behaviour.md §2): new requests, the EBLID search, the own EBLID with a copy
// button, and the friends list with 'Удалить' and 'Открыть чат'.
import { useId } from 'react';
import type { Contact } from '../../contract/entities';
import { presenceText } from '../../contract/format';
import { ContactCodePanel } from './ContactCodePanel';
import { ListRegion } from '../shared/ListRegion';
import { Modal } from '../shared/Modal';
import type { ContactCodeView } from './useContactCode';
import { UserAvatar } from '../shared/UserAvatar';
import './contacts.css';

export interface ContactsDialogProps {
  eblid: string;
  incoming: Contact[];
  friends: Contact[];
  busy: boolean;
  error: string | null;
  code: Omit<ContactCodeView, 'onReset'>;
  copied: boolean;
  onCopy: () => void;
  onAccept: (contactId: string) => void;
  onReject: (contactId: string) => void;
  onRemove: (contactId: string) => void;
  onOpenChat: (userId: string) => void;
  onClose: () => void;
}

function PersonLine({ contact, sub, nameId }: { contact: Contact; sub: string; nameId: string }) {
  return (
    <>
      <UserAvatar user={contact.friend} size={36} presence />
      <div className="person-text">
        <span className="person-name" id={nameId}>
          {contact.friend.displayName}
        </span>
        <span className="person-sub">{sub}</span>
      </div>
    </>
  );
}

function RequestRow(props: { contact: Contact; busy: boolean; onAccept: () => void; onReject: () => void }) {
  const nameId = useId();
  return (
    <li className="person-tile">
      <PersonLine contact={props.contact} sub="хочет добавить вас" nameId={nameId} />
      <div className="row-actions">
        <button
          type="button"
          className="button ghost small"
          aria-describedby={nameId}
          disabled={props.busy}
          onClick={props.onReject}
        >
          Отклонить
        </button>
        <button
          type="button"
          className="button primary small"
          aria-describedby={nameId}
          disabled={props.busy}
          onClick={props.onAccept}
        >
          Добавить
        </button>
      </div>
    </li>
  );
}

function FriendRow(props: { contact: Contact; busy: boolean; onRemove: () => void; onOpenChat: () => void }) {
  const nameId = useId();
  return (
    <li className="person-tile">
      <PersonLine contact={props.contact} sub={presenceText(props.contact.friend)} nameId={nameId} />
      <div className="row-actions">
        <button
          type="button"
          className="button ghost small"
          aria-describedby={nameId}
          disabled={props.busy}
          onClick={props.onRemove}
        >
          Удалить
        </button>
        <button
          type="button"
          className="button primary small"
          aria-describedby={nameId}
          disabled={props.busy}
          onClick={props.onOpenChat}
        >
          Открыть чат
        </button>
      </div>
    </li>
  );
}

export function ContactsDialog(props: ContactsDialogProps) {
  return (
    <Modal title="Контакты" onClose={props.onClose} className="contacts-modal">
      {props.error && (
        <p className="inline-error" role="alert">
          {props.error}
        </p>
      )}
      <section className="dialog-section" aria-labelledby="contacts-requests">
        <h3 className="section-title" id="contacts-requests">
          Новые запросы
        </h3>
        <ListRegion
          items={props.incoming}
          itemKey={(c) => c.id}
          renderItem={(c) => (
            <RequestRow
              contact={c}
              busy={props.busy}
              onAccept={() => props.onAccept(c.id)}
              onReject={() => props.onReject(c.id)}
            />
          )}
          className="person-list"
          empty={<p className="muted">Нет новых запросов</p>}
        />
      </section>

      <div className="dialog-section">
        <ContactCodePanel {...props.code} />
      </div>

      <section className="dialog-section my-eblid" aria-label="Мой EBLID">
        <span>
          Мой EBLID: <strong className="eblid">{props.eblid}</strong>
        </span>
        <button type="button" className="button ghost small" onClick={props.onCopy}>
          Копировать
        </button>
        <span className="inline-note-plain" role="status">
          {props.copied ? 'Скопировано' : ''}
        </span>
      </section>

      <section className="dialog-section" aria-labelledby="contacts-friends">
        <h3 className="section-title" id="contacts-friends">
          Мои друзья
        </h3>
        <ListRegion
          items={props.friends}
          itemKey={(c) => c.id}
          renderItem={(c) => (
            <FriendRow
              contact={c}
              busy={props.busy}
              onRemove={() => props.onRemove(c.id)}
              onOpenChat={() => props.onOpenChat(c.friend.id)}
            />
          )}
          className="person-list friends-list"
          empty={<p className="muted">Пока нет друзей</p>}
        />
      </section>
    </Modal>
  );
}
