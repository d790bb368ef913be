// «Информация» (beside the conversation on wide screens, the whole screen on narrow ones): a group's picture,
// title, member count and members with presence and roles, with what one's role allows; a direct chat's other
// person with EBLID and «О себе». Renders from props (useConversationInfo).
import { type ReactNode, Suspense, useId, useState } from 'react';
import type { PublicUser } from '../../contract/entities';
import { LazyMemberWrite } from '../contacts/deferred';
import { LazyDirectoryPicker } from '../directory/index';
import { HistoryImportEntry } from '../historyImport/index';
import { ChatAvatar } from '../shared/ChatAvatar';
import { ChatMediaSection } from './ChatMedia';
import { HistorySettingSection, SecretHistoryNote } from './HistorySetting';
import type { ConversationInfoProps } from './useConversationInfo';
import './conversation-info.css';

export type ConversationInfoViewProps = ConversationInfoProps & {
  /** «Люди» from the directory under the friends in «Добавить участников», while it is on (§10.28). */
  addPeople?: ReactNode;
};

/** «Информация» with «Люди» from the directory to add to a group. */
export function ConnectedConversationInfo(props: ConversationInfoProps) {
  return (
    <ConversationInfo
      {...props}
      addPeople={
        props.adding ? (
          <LazyDirectoryPicker selected={props.selected} onToggle={props.onToggle} exclude={props.addExclude} />
        ) : null
      }
    />
  );
}

export function ConversationInfo(props: ConversationInfoViewProps) {
  const { view } = props;
  // The member whose «Написать» is under way (its actor lives while it is set).
  const [writing, setWriting] = useState<PublicUser | null>(null);
  return (
    <aside className="info-panel" aria-label="Информация" data-testid="conversation-info">
      <header className="info-head">
        <button type="button" className="icon-button info-back" aria-label="Закрыть" onClick={props.onClose}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <h2>Информация</h2>
      </header>
      {view && (
        <div className="info-body">
          <div className="info-card">
            <ChatAvatar avatar={view.avatar} size={96} />
            {props.picture}
            {props.renaming ? (
              <form
                className="info-rename"
                onSubmit={(e) => {
                  e.preventDefault();
                  props.onRenameConfirm();
                }}
              >
                <input
                  aria-label="Название группы"
                  value={props.title}
                  maxLength={100}
                  // biome-ignore lint/a11y/noAutofocus: the field the user just asked for
                  autoFocus
                  onChange={(e) => props.onTitle(e.target.value)}
                />
                <button type="submit" className="button" disabled={props.busy || !props.title.trim()}>
                  Сохранить
                </button>
                <button type="button" className="button ghost" onClick={props.onCancel}>
                  Отмена
                </button>
              </form>
            ) : (
              <h3 className="info-title">{view.title}</h3>
            )}
            <p className={`info-subtitle${view.peer?.online ? ' online' : ''}`}>{view.subtitle}</p>
          </div>
          {props.chat && (
            <div className="info-actions">
              <button type="button" className="button ghost" onClick={props.chat.onMute}>
                {props.chat.muted ? 'Включить звук' : 'Без звука'}
              </button>
              <button type="button" className="button ghost" onClick={props.chat.onMarkUnread}>
                {props.chat.markedUnread ? 'Пометить как прочитанное' : 'Пометить как непрочитанное'}
              </button>
              <button type="button" className="button ghost" onClick={props.chat.onPin}>
                {props.chat.pinned ? 'Открепить' : 'Закрепить'}
              </button>
              <button type="button" className="button ghost" onClick={props.chat.onArchive}>
                {props.chat.archived ? 'Из архива' : 'В архив'}
              </button>
              <button type="button" className="button ghost" onClick={props.chat.onClear}>
                Очистить историю
              </button>
              {view.peer && (
                <button type="button" className="button ghost" onClick={props.chat.onDelete}>
                  Удалить чат
                </button>
              )}
            </div>
          )}
          {props.verify && <div className="info-actions">{props.verify}</div>}
          {props.historyImport && (
            <div className="info-actions">
              <HistoryImportEntry {...props.historyImport} />
            </div>
          )}
          {view.peer && props.block && (
            <div className="info-actions">
              {props.block.blocked ? (
                <button type="button" className="button" disabled={props.block.busy} onClick={props.block.onUnblock}>
                  Разблокировать
                </button>
              ) : (
                <button
                  type="button"
                  className="button danger"
                  disabled={props.block.busy}
                  onClick={props.block.onBlock}
                >
                  Заблокировать
                </button>
              )}
              {props.report}
            </div>
          )}
          {view.peer && (
            <dl className="info-profile">
              {view.peer.customStatus && (
                <>
                  <dt>Статус</dt>
                  <dd data-testid="peer-custom-status">{view.peer.customStatus}</dd>
                </>
              )}
              {/* A deleted account has none (docs/accounts.md «Deleting an account»). */}
              {view.peer.eblid && (
                <>
                  <dt>EBLID</dt>
                  <dd>{view.peer.eblid}</dd>
                </>
              )}
              {view.peer.bio && (
                <>
                  <dt>О себе</dt>
                  <dd>{view.peer.bio}</dd>
                </>
              )}
            </dl>
          )}
          {!view.isGroup && props.callLinks}
          {props.error && (
            <p className="info-error" role="alert">
              {props.error}
            </p>
          )}
          {props.confirm && (
            <div className="info-confirm" role="alertdialog" aria-label={props.confirm.question}>
              <p>{props.confirm.question}</p>
              <button type="button" className="button danger" disabled={props.busy} onClick={props.onConfirm}>
                {props.confirm.yes}
              </button>
              <button type="button" className="button ghost" onClick={props.onCancel}>
                Отмена
              </button>
            </div>
          )}
          {/* Keyed apart from its sibling «Ссылки на звонки», whose key is the bare conversation id: two siblings of
              one key made React draw that section again on each update. */}
          {props.media && <ChatMediaSection key={`media-${props.media.conversationId}`} {...props.media} />}
          {view.isGroup && (
            <>
              {view.canManage && !props.renaming && !props.adding && (
                <div className="info-actions">
                  <button type="button" className="button ghost" onClick={props.onAddOpen}>
                    Добавить участников
                  </button>
                  <button type="button" className="button ghost" onClick={props.onRenameOpen}>
                    Изменить название
                  </button>
                </div>
              )}
              {props.adding && (
                <fieldset className="info-add">
                  <legend>Добавить участников</legend>
                  {props.addable.length === 0 ? (
                    <p className="info-note">Все ваши друзья уже в группе</p>
                  ) : (
                    <ul>
                      {props.addable.map((f) => (
                        <li key={f.id}>
                          <label>
                            <input type="checkbox" checked={f.ticked} onChange={() => props.onToggle(f.id)} /> {f.name}
                          </label>
                        </li>
                      ))}
                    </ul>
                  )}
                  {props.addPeople}
                  <button
                    type="button"
                    className="button"
                    disabled={props.busy || props.selected.length === 0}
                    onClick={props.onAddConfirm}
                  >
                    Добавить
                  </button>
                  <button type="button" className="button ghost" onClick={props.onCancel}>
                    Отмена
                  </button>
                </fieldset>
              )}
              {!view.secret && (
                <OpenGroupSwitch open={view.open} canManage={view.canManage} busy={props.busy} onOpen={props.onOpen} />
              )}
              {props.invites}
              {props.callLinks}
              {props.history && <HistorySettingSection {...props.history} />}
              {props.secretGroup && <SecretHistoryNote />}
              {view.canManage && props.threadsOn !== null && (
                <label className="info-switch">
                  <input
                    type="checkbox"
                    checked={props.threadsOn}
                    disabled={props.busy}
                    onChange={(e) => props.onThreads(e.target.checked)}
                  />{' '}
                  Обсуждения (ответы в отдельной ветке)
                </label>
              )}
              <h4 className="info-section">{view.subtitle}</h4>
              <ul className="info-members" aria-label="Участники">
                {view.members.map((m) => (
                  <li key={m.id} className="info-member" data-testid="member" data-user-id={m.id}>
                    <ChatAvatar avatar={m.avatar} size={36} />
                    <span className="info-member-text">
                      <span className="info-member-name">
                        {m.name}
                        {m.me && ' (вы)'}
                      </span>
                      {m.customStatus && (
                        <span className="info-member-custom" data-testid="member-custom-status">
                          {m.customStatus}
                        </span>
                      )}
                      <span className={`info-member-presence${m.online ? ' online' : ''}`}>{m.presence}</span>
                    </span>
                    {m.role && <span className="info-role">{m.role}</span>}
                    {props.people.has(m.id) && (
                      <button
                        type="button"
                        className="button ghost info-write"
                        aria-label={`Написать: ${m.name}`}
                        disabled={writing !== null}
                        onClick={() => setWriting(props.people.get(m.id) ?? null)}
                      >
                        Написать
                      </button>
                    )}
                    {m.actions.length > 0 && (
                      <details className="info-member-menu">
                        <summary aria-label={`Действия: ${m.name}`}>⋯</summary>
                        <div className="info-menu">
                          {m.actions.map((a) => (
                            <button
                              key={a.label}
                              type="button"
                              disabled={props.busy}
                              onClick={(e) => {
                                (e.currentTarget.closest('details') as HTMLDetailsElement | null)?.removeAttribute(
                                  'open',
                                );
                                props.onAction(a.action);
                              }}
                            >
                              {a.label}
                            </button>
                          ))}
                        </div>
                      </details>
                    )}
                  </li>
                ))}
              </ul>
              {writing && (
                <Suspense fallback={null}>
                  <LazyMemberWrite key={writing.id} user={writing} onClose={() => setWriting(null)} />
                </Suspense>
              )}
              <button type="button" className="button danger info-leave" onClick={props.onLeave}>
                Покинуть группу
              </button>
            </>
          )}
        </div>
      )}
    </aside>
  );
}

/**
 * «Открытая группа» (docs/behaviour.md §10.25): owners and admins switch it; the others read whether it is. Open,
 * it is listed in «Открытые группы» while the directory is on, and anyone joins it with one click.
 */
function OpenGroupSwitch(props: { open: boolean; canManage: boolean; busy: boolean; onOpen(open: boolean): void }) {
  const id = useId();
  if (!props.canManage) return props.open ? <p className="info-note">Открытая группа: вступить может любой</p> : null;
  return (
    <div className="info-open">
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-checked={props.open}
          checked={props.open}
          disabled={props.busy}
          aria-describedby={`${id}-hint`}
          onChange={(e) => props.onOpen(e.target.checked)}
        />{' '}
        Открытая группа
      </label>
      <p className="info-note" id={`${id}-hint`}>
        Её находят в «Открытые группы» и вступают без приглашения
      </p>
    </div>
  );
}
