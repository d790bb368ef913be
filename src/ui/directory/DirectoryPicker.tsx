// «Люди» in the dialogs that make a chat (docs/behaviour.md §10.25): with «Каталог участников» on, anyone found
// there can be ticked besides friends; with it off nothing shows. The ticks are the dialog's own (its actor).
import { useId } from 'react';
import { UserAvatar } from '../shared/UserAvatar';
import { useDirectory } from './useDirectory';

export interface DirectoryPickerProps {
  selected: string[];
  onToggle(userId: string): void;
  /** Friends: already listed above. */
  exclude: ReadonlySet<string>;
}

export function DirectoryPicker(props: DirectoryPickerProps) {
  const d = useDirectory();
  const searchId = useId();
  if (!d.shown) return null;
  const people = d.users.filter((u) => !props.exclude.has(u.id));
  return (
    <fieldset className="pick-fieldset">
      <legend className="section-title">Люди</legend>
      <label className="field" htmlFor={searchId}>
        <span>Поиск по имени, @нику или ID</span>
        <input
          id={searchId}
          type="search"
          autoComplete="off"
          maxLength={100}
          value={d.q}
          onChange={(e) => d.onSearch(e.target.value)}
          // Enter searches as typed; it does not submit the dialog.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
        />
      </label>
      {people.length === 0 ? (
        <p className="muted">{d.busy ? 'Загрузка…' : 'Никого не нашлось'}</p>
      ) : (
        <ul className="pick-list">
          {people.map((u) => {
            const ticked = props.selected.includes(u.id);
            return (
              <li key={u.id}>
                <label className={`pick-row ${ticked ? 'ticked' : ''}`}>
                  <input type="checkbox" checked={ticked} onChange={() => props.onToggle(u.id)} />
                  <UserAvatar user={u} size={32} />
                  <span className="person-text">
                    <span className="person-name">{u.displayName}</span>
                    <span className="person-sub">{ticked ? 'Выбрано' : `@${u.username}`}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
