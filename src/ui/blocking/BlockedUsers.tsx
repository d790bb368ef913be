// Settings: «Заблокированные» — the people the user blocked, each with «Разблокировать».
import { displayName } from '../../contract/format';
import { type BlockingView, useBlocking } from './useBlocking';
import './blocking.css';

/** The settings section with its own blocking actor (alive while it is shown). */
export function BlockedUsersSection() {
  return <BlockedUsers blocking={useBlocking({ list: true })} />;
}

export function BlockedUsers(props: { blocking: BlockingView }) {
  const { blocking } = props;
  return (
    <section className="card form settings-blocked" aria-labelledby="settings-blocked" aria-busy={blocking.busy}>
      <h2 className="form-title" id="settings-blocked">
        Заблокированные
      </h2>
      {blocking.error && (
        <p className="inline-error" role="alert">
          {blocking.error}{' '}
          {!blocking.loaded && (
            <button type="button" className="link-button" onClick={blocking.load}>
              Повторить
            </button>
          )}
        </p>
      )}
      {blocking.loaded && blocking.users.length === 0 ? (
        <p className="form-hint">Вы никого не заблокировали</p>
      ) : (
        <ul className="blocked-list">
          {blocking.users.map((u) => (
            <li key={u.id}>
              <span>{displayName(u)}</span>
              <button
                type="button"
                className="button ghost"
                disabled={blocking.busy}
                onClick={() => blocking.unblock(u.id)}
              >
                Разблокировать
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
