// «Пользователи» (docs/behaviour.md §10.20): search by name, username or EBLID; every account with its registration,
// last visit, sign-ins, state and role; «Отключить» / «Включить», «Завершить сеансы», «Ссылка для сброса пароля»,
// «Сделать администратором» / «Снять права администратора»; «Показать ещё» for the next page.
import { useId, useState } from 'react';
import type { UserAction } from '../../machines/admin/adminUsers/adminUsers.protocol';
import { Modal } from '../shared/Modal';
import { ROLE_TEXT, STATE_TEXT, when } from './texts';
import { type AdminUsersView, useAdminUsers } from './useAdminUsers';

export function UsersTab() {
  return <UsersView {...useAdminUsers()} />;
}

const CONFIRM: Record<
  Exclude<UserAction, 'reactivate' | 'endSessions'>,
  { title: (n: string) => string; text: string; button: string }
> = {
  deactivate: {
    title: (n) => `Отключить аккаунт: ${n}?`,
    text: 'Все сеансы завершатся сразу, войти будет нельзя, пока аккаунт не включат снова. Сообщения останутся.',
    button: 'Отключить',
  },
  promote: {
    title: (n) => `Сделать администратором: ${n}?`,
    text: 'Администратор видит «Администрирование» и может отключать аккаунты.',
    button: 'Сделать администратором',
  },
  demote: {
    title: (n) => `Снять права администратора: ${n}?`,
    text: 'Раздел «Администрирование» станет недоступен.',
    button: 'Снять права',
  },
  resetSecondFactor: {
    title: (n) => `Сбросить двухэтапную проверку: ${n}?`,
    text: 'Приложение-аутентификатор, коды восстановления и ключи доступа перестанут действовать: войти можно будет по одному паролю. Делайте это, только убедившись, что просит сам владелец аккаунта.',
    button: 'Сбросить',
  },
};

export function UsersView(props: AdminUsersView) {
  const [query, setQuery] = useState(props.query);
  const searchId = useId();
  const ask =
    props.confirm && props.confirm.action in CONFIRM ? CONFIRM[props.confirm.action as keyof typeof CONFIRM] : null;
  return (
    <section className="card admin-section" aria-labelledby="admin-users-title" aria-busy={props.busy}>
      <h2 className="form-title" id="admin-users-title">
        Пользователи
      </h2>
      <form
        className="admin-search"
        aria-label="Поиск пользователей"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(query);
        }}
      >
        <label htmlFor={searchId}>Поиск</label>
        <input
          id={searchId}
          type="search"
          placeholder="Имя, никнейм или EBLID"
          value={query}
          maxLength={64}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="button">
          Найти
        </button>
      </form>
      {props.error && (
        <p className="inline-error" role="alert">
          {props.error}
        </p>
      )}
      {!props.busy && props.users.length === 0 && !props.error && <p className="empty-note">Никого не нашли</p>}
      {props.users.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Пользователи сервера</caption>
            <thead>
              <tr>
                <th scope="col">Имя</th>
                <th scope="col">EBLID</th>
                <th scope="col">Зарегистрирован</th>
                <th scope="col">Был в сети</th>
                <th scope="col">Сеансы</th>
                <th scope="col">Состояние</th>
                <th scope="col">Роль</th>
                <th scope="col">Действия</th>
              </tr>
            </thead>
            <tbody>
              {props.users.map((u) => (
                <tr key={u.id} data-testid="admin-user">
                  <th scope="row">
                    <span className="admin-name">{u.displayName}</span>
                    <span className="admin-username">@{u.username}</span>
                  </th>
                  <td>{u.eblid}</td>
                  <td>{when(u.createdAt)}</td>
                  <td>{when(u.lastSeenAt)}</td>
                  <td>{u.sessions}</td>
                  <td>{STATE_TEXT[u.state]}</td>
                  <td>{ROLE_TEXT[u.role]}</td>
                  <td>
                    {u.state !== 'deleted' && (
                      <div className="admin-actions">
                        {u.state === 'active' ? (
                          // One's own account cannot be switched off (the server refuses it too).
                          u.id !== props.ownId && (
                            <button
                              type="button"
                              className="button ghost"
                              disabled={props.busy}
                              onClick={() => props.onAct(u.id, 'deactivate')}
                            >
                              Отключить
                            </button>
                          )
                        ) : (
                          <button
                            type="button"
                            className="button ghost"
                            disabled={props.busy}
                            onClick={() => props.onAct(u.id, 'reactivate')}
                          >
                            Включить
                          </button>
                        )}
                        <button
                          type="button"
                          className="button ghost"
                          disabled={props.busy || u.sessions === 0}
                          onClick={() => props.onAct(u.id, 'endSessions')}
                        >
                          Завершить сеансы
                        </button>
                        <button
                          type="button"
                          className="button ghost"
                          disabled={props.busy}
                          onClick={() => props.onResetLink(u.id)}
                        >
                          Ссылка для сброса пароля
                        </button>
                        {u.secondFactor && (
                          <button
                            type="button"
                            className="button ghost"
                            disabled={props.busy}
                            onClick={() => props.onAct(u.id, 'resetSecondFactor')}
                          >
                            Сбросить двухэтапную проверку
                          </button>
                        )}
                        <button
                          type="button"
                          className="button ghost"
                          disabled={props.busy}
                          onClick={() => props.onAct(u.id, u.role === 'admin' ? 'demote' : 'promote')}
                        >
                          {u.role === 'admin' ? 'Снять права администратора' : 'Сделать администратором'}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.hasMore && (
        <div className="form-actions">
          <button type="button" className="button" disabled={props.busy} onClick={props.onMore}>
            Показать ещё
          </button>
        </div>
      )}
      {props.confirm && ask && (
        <Modal title={ask.title(props.confirm.name)} onClose={props.onCancel}>
          <p>{ask.text}</p>
          <div className="modal-actions">
            <button type="button" className="button danger" onClick={props.onConfirm}>
              {ask.button}
            </button>
            <button type="button" className="button ghost" onClick={props.onCancel}>
              Отмена
            </button>
          </div>
        </Modal>
      )}
      {props.resetLink && (
        <Modal title={`Ссылка для сброса пароля: ${props.resetLink.name}`} onClose={props.onCloseLink}>
          <label className="field">
            <span>Ссылка</span>
            <input readOnly value={props.resetLink.url} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <p className="form-hint">
            Одноразовая, действует до {when(props.resetLink.expiresAt)}. Передайте её владельцу аккаунта.
          </p>
          <div className="modal-actions">
            <button type="button" className="button primary" onClick={props.onCopyLink}>
              {props.copied ? 'Скопировано' : 'Копировать'}
            </button>
            <button type="button" className="button ghost" onClick={props.onCloseLink}>
              Закрыть
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
