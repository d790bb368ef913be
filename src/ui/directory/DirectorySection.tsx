// «Люди» and «Открытые группы» on the contacts page (docs/behaviour.md §10.25): shown only while the administrator
// keeps «Каталог участников» on. One search field (name, @username or EBLID) filters both; a person can be asked
// to be a friend, an open group joined with «Вступить».
import { useId } from 'react';
import type { OpenGroup } from '../../contract/directory';
import type { PublicUser } from '../../contract/entities';
import { UserAvatar } from '../shared/UserAvatar';
import { type DirectoryView, useDirectory } from './useDirectory';

export interface DirectorySectionProps {
  /** «Добавить в друзья»: the contacts page's add, by @username. */
  onAddFriend(identifier: string): void;
  /** Ids of the people who are friends or asked already (no «Добавить в друзья» for them). */
  known: ReadonlySet<string>;
}

export function DirectorySection(props: DirectorySectionProps) {
  return <DirectorySectionView {...useDirectory()} {...props} />;
}

export type DirectorySectionViewProps = Omit<DirectoryView, 'joining'> & {
  joining: string | null;
} & DirectorySectionProps;

export function DirectorySectionView(props: DirectorySectionViewProps) {
  const searchId = useId();
  if (props.failed)
    return (
      <section className="card directory" aria-label="Каталог участников">
        <p className="inline-error" role="alert">
          {props.error}
        </p>
        <button type="button" className="button ghost" onClick={props.onRetry}>
          Повторить
        </button>
      </section>
    );
  if (!props.shown) return null;
  return (
    <>
      <section className="card directory" aria-labelledby={`${searchId}-people`}>
        <h2 className="section-title" id={`${searchId}-people`}>
          Люди
        </h2>
        <label className="field" htmlFor={searchId}>
          <span>Поиск по имени, @нику или ID</span>
          <input
            id={searchId}
            type="search"
            autoComplete="off"
            maxLength={100}
            value={props.q}
            onChange={(e) => props.onSearch(e.target.value)}
          />
        </label>
        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}
        {props.users.length === 0 ? (
          <p className="muted empty-note">{props.busy ? 'Загрузка…' : 'Никого не нашлось'}</p>
        ) : (
          <ul className="person-list" aria-label="Люди">
            {props.users.map((u) => (
              <PersonRow
                key={u.id}
                user={u}
                known={props.known.has(u.id)}
                onAdd={() => props.onAddFriend(`@${u.username}`)}
              />
            ))}
          </ul>
        )}
      </section>
      <section className="card directory" aria-labelledby={`${searchId}-groups`}>
        <h2 className="section-title" id={`${searchId}-groups`}>
          Открытые группы
        </h2>
        {props.groups.length === 0 ? (
          <p className="muted empty-note">Открытых групп нет</p>
        ) : (
          <ul className="person-list" aria-label="Открытые группы">
            {props.groups.map((g) => (
              <GroupRow key={g.id} group={g} busy={props.joining === g.id} onJoin={() => props.onJoin(g.id)} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function PersonRow(props: { user: PublicUser; known: boolean; onAdd(): void }) {
  const nameId = useId();
  const { user } = props;
  return (
    <li className="person-tile">
      <UserAvatar user={user} size={40} />
      <div className="person-text">
        <span className="person-name" id={nameId}>
          {user.displayName}
        </span>
        <span className="person-sub">@{user.username}</span>
      </div>
      {!props.known && (
        <div className="row-actions">
          <button type="button" className="button ghost small" aria-describedby={nameId} onClick={props.onAdd}>
            Добавить в друзья
          </button>
        </div>
      )}
    </li>
  );
}

/** «N участников» with the right ending. */
export function membersLabel(n: number): string {
  const ten = n % 10;
  const hundred = n % 100;
  const word =
    ten === 1 && hundred !== 11
      ? 'участник'
      : ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)
        ? 'участника'
        : 'участников';
  return `${n} ${word}`;
}

function GroupRow(props: { group: OpenGroup; busy: boolean; onJoin(): void }) {
  const nameId = useId();
  const { group } = props;
  const title = group.title ?? 'Группа';
  return (
    <li className="person-tile">
      <UserAvatar user={{ id: group.id, displayName: title, avatarUrl: group.avatarUrl }} size={40} />
      <div className="person-text">
        <span className="person-name" id={nameId}>
          {title}
        </span>
        <span className="person-sub">{membersLabel(group.memberCount)}</span>
      </div>
      <div className="row-actions">
        {group.member ? (
          <span className="muted">Вы участник</span>
        ) : (
          <button
            type="button"
            className="button primary small"
            aria-describedby={nameId}
            disabled={props.busy}
            onClick={props.onJoin}
          >
            Вступить
          </button>
        )}
      </div>
    </li>
  );
}
