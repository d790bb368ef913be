// The contacts page /contacts (docs/behaviour.md §2): a filter, an add form ('ID / ник / email'), and a row per contact
// with its lowercased status and the actions its state allows.
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { customStatusLine } from '../../contract/custom-status';
import type { Contact } from '../../contract/entities';
import { type ContactsFilter, filterContacts } from '../../machines/contacts/contacts/contact-list';
import { useBlocking } from '../blocking/index';
import { LazyDirectorySection } from '../directory/index';
import { ListRegion } from '../shared/ListRegion';
import { UserAvatar } from '../shared/UserAvatar';
import { useContacts } from './useContacts';
import './contacts.css';

export const FILTERS: { value: ContactsFilter; label: string }[] = [
  { value: 'accepted', label: 'Друзья' },
  { value: 'incoming', label: 'Входящие' },
  { value: 'outgoing', label: 'Исходящие' },
  { value: 'all', label: 'Все' },
];

export function ContactsPage() {
  const c = useContacts();
  // Who the user blocked, and «Заблокировать» / «Разблокировать» per friend (the blocking actor, alive with the page).
  const blocking = useBlocking({ list: true });
  const blocked = useMemo(() => new Set(blocking.users.map((u) => u.id)), [blocking.users]);
  const [filter, setFilter] = useState<ContactsFilter>('all');
  // The notice belongs to this visit of the page: it goes when the page does.
  const { dismissNotice } = c;
  useEffect(() => dismissNotice, [dismissNotice]);
  const added = useMemo(() => (c.addedNotice ? { text: c.addedNotice } : null), [c.addedNotice]);
  const known = useMemo(() => new Set(c.contacts.map((x) => x.friend.id)), [c.contacts]);
  return (
    <ContactsPageView
      contacts={filterContacts(c.contacts, filter)}
      loaded={c.loaded}
      filter={filter}
      busy={c.busy}
      error={c.error}
      added={added}
      onFilter={setFilter}
      onAdd={c.add}
      onAccept={c.accept}
      onReject={c.reject}
      onStartChat={c.openChat}
      block={{ blocked, busy: blocking.busy, onBlock: blocking.block, onUnblock: blocking.unblock }}
      directory={<LazyDirectorySection onAddFriend={c.add} known={known} />}
    />
  );
}

export interface AddedNote {
  text: string;
}

export interface ContactsPageViewProps {
  contacts: Contact[];
  loaded: boolean;
  filter: ContactsFilter;
  busy: boolean;
  error: string | null;
  /** The last add succeeded: the field is cleared and the note shown (a new object for every success). */
  added: AddedNote | null;
  onFilter: (filter: ContactsFilter) => void;
  onAdd: (identifier: string) => void;
  onAccept: (contactId: string) => void;
  onReject: (contactId: string) => void;
  onStartChat: (userId: string) => void;
  /** Blocking a friend from the list: who is blocked, and the two actions (by user id). */
  block?: {
    blocked: ReadonlySet<string>;
    busy: boolean;
    onBlock(userId: string): void;
    onUnblock(userId: string): void;
  };
  /** «Люди» and «Открытые группы», while the administrator keeps the directory on. */
  directory?: ReactNode;
}

/** One action of a contact's row, described by the contact's name. */
function RowButton(props: { label: string; primary?: boolean; describedBy: string; busy: boolean; onClick(): void }) {
  return (
    <button
      type="button"
      className={`button ${props.primary ? 'primary' : 'ghost'} small`}
      aria-describedby={props.describedBy}
      disabled={props.busy}
      onClick={props.onClick}
    >
      {props.label}
    </button>
  );
}

function ContactRow(props: {
  contact: Contact;
  busy: boolean;
  onAccept: () => void;
  onReject: () => void;
  onStartChat: () => void;
  blocked?: boolean;
  /** The blocking actor is loading its list or changing a block (or not here yet). */
  blockBusy?: boolean;
  onBlock?: () => void;
}) {
  const { contact } = props;
  const nameId = useId();
  const pending = contact.status === 'PENDING';
  return (
    <li className="person-tile contact-row">
      <UserAvatar user={contact.friend} size={40} presence />
      <div className="person-text">
        <span className="person-name" id={nameId}>
          {contact.friend.displayName}
        </span>
        {contact.friend.customStatus && (
          <span className="person-sub contact-custom-status" data-testid="contact-custom-status">
            {customStatusLine(contact.friend.customStatus)}
          </span>
        )}
        <span className="person-sub">{contact.status.toLowerCase()}</span>
      </div>
      <div className="row-actions">
        {pending && contact.direction === 'incoming' && (
          <>
            <RowButton label="Принять" primary describedBy={nameId} busy={props.busy} onClick={props.onAccept} />
            <RowButton label="Отклонить" describedBy={nameId} busy={props.busy} onClick={props.onReject} />
          </>
        )}
        {pending && contact.direction === 'outgoing' && <span className="muted">ожидание подтверждения…</span>}
        {!pending && (
          <RowButton label="Начать чат" primary describedBy={nameId} busy={props.busy} onClick={props.onStartChat} />
        )}
        {props.onBlock && (
          <RowButton
            label={props.blocked ? 'Разблокировать' : 'Заблокировать'}
            describedBy={nameId}
            busy={props.busy || props.blockBusy === true}
            onClick={props.onBlock}
          />
        )}
      </div>
    </li>
  );
}

export function ContactsPageView(props: ContactsPageViewProps) {
  const [identifier, setIdentifier] = useState('');
  const filterId = useId();
  // A successful add clears the field (the actor tells us through `added`).
  useEffect(() => {
    if (props.added) setIdentifier('');
  }, [props.added]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (identifier.trim()) props.onAdd(identifier.trim());
  };
  const empty = FILTERS.find((f) => f.value === props.filter)?.label ?? '';
  return (
    <section className="page contacts-page">
      <header className="page-head">
        <h1>Контакты</h1>
        <label className="field inline-field" htmlFor={filterId}>
          <span>Показать</span>
          <select id={filterId} value={props.filter} onChange={(e) => props.onFilter(e.target.value as ContactsFilter)}>
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </header>

      <form className="card add-form" onSubmit={submit} aria-label="Добавить контакт">
        <label className="field">
          <span>ID / ник / email</span>
          <input
            name="identifier"
            required
            autoComplete="off"
            maxLength={254}
            value={identifier}
            onChange={(e) => setIdentifier(e.target.value)}
          />
        </label>
        <button type="submit" className="button primary" disabled={props.busy}>
          Добавить
        </button>
      </form>
      <div aria-live="polite">
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        {props.added && !props.error && <p className="inline-note">{props.added.text}</p>}
      </div>

      <div className="card">
        <ListRegion
          items={props.contacts}
          itemKey={(c) => c.id}
          renderItem={(c) => (
            <ContactRow
              contact={c}
              busy={props.busy}
              onAccept={() => props.onAccept(c.id)}
              onReject={() => props.onReject(c.id)}
              onStartChat={() => props.onStartChat(c.friend.id)}
              blocked={props.block?.blocked.has(c.friend.id)}
              blockBusy={props.block?.busy}
              onBlock={
                props.block
                  ? () =>
                      props.block?.blocked.has(c.friend.id)
                        ? props.block.onUnblock(c.friend.id)
                        : props.block?.onBlock(c.friend.id)
                  : undefined
              }
            />
          )}
          className="person-list"
          label="Список контактов"
          loaded={props.loaded}
          loading={<p className="muted empty-note">Загрузка…</p>}
          empty={<p className="muted empty-note">{`Пусто: ${empty.toLowerCase()}`}</p>}
        />
      </div>
      {props.directory}
    </section>
  );
}
