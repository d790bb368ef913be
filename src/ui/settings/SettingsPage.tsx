// The settings page /settings (docs/behaviour.md §2): 'Профиль' with Имя, Статус (the four presence values in
// Russian), О себе and 'Сохранить'. The form starts from the own record and starts again when it changes.
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { PresenceStatus, User } from '../../contract/entities';
import { LIMITS } from '../../contract/limits';
import type { ProfileFields } from '../../machines/profile/profile.machine';
import { useSettings } from './useSettings';
import '../../styles/contacts.css';

export const STATUS_OPTIONS: { value: PresenceStatus; label: string }[] = [
  { value: 'ONLINE', label: 'ОНЛАЙН' },
  { value: 'AWAY', label: 'Отошел' },
  { value: 'DND', label: 'Не беспокоить' },
  { value: 'OFFLINE', label: 'Оффлайн' },
];

export function SettingsPage() {
  const s = useSettings();
  return <SettingsPageView {...s} />;
}

export interface SettingsPageViewProps {
  me: User | null;
  /** The own record has been fetched (until then the stored one is shown). */
  loaded: boolean;
  busy: boolean;
  saved: boolean;
  error: string | null;
  onSave: (fields: ProfileFields) => void;
}

const fieldsOf = (me: User | null): ProfileFields => ({
  displayName: me?.displayName ?? '',
  status: me?.status ?? 'ONLINE',
  bio: me?.bio ?? '',
});

export function SettingsPageView(props: SettingsPageViewProps) {
  const [fields, setFields] = useState<ProfileFields>(() => fieldsOf(props.me));
  const ids = { name: useId(), status: useId(), bio: useId() };
  // A new own record (fetched, saved, changed in another tab) resets the form to it.
  useEffect(() => setFields(fieldsOf(props.me)), [props.me]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave(fields);
  };
  const set = <K extends keyof ProfileFields>(key: K, value: ProfileFields[K]) => setFields((f) => ({ ...f, [key]: value }));
  return (
    <section className="page settings-page">
      <header className="page-head">
        <h1>Настройки</h1>
      </header>
      <form className="card form settings-form" onSubmit={submit} aria-labelledby="settings-profile">
        <h2 className="form-title" id="settings-profile">
          Профиль
        </h2>
        <div className="field">
          <label htmlFor={ids.name}>Имя</label>
          <input
            id={ids.name}
            name="displayName"
            required
            minLength={LIMITS.displayNameMin}
            maxLength={LIMITS.displayNameMax}
            value={fields.displayName}
            onChange={(e) => set('displayName', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.status}>Статус</label>
          <select id={ids.status} name="status" value={fields.status} onChange={(e) => set('status', e.target.value as PresenceStatus)}>
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.bio}>О себе</label>
          <textarea
            id={ids.bio}
            name="bio"
            rows={4}
            maxLength={LIMITS.bioMax}
            value={fields.bio}
            onChange={(e) => set('bio', e.target.value)}
          />
        </div>
        <div aria-live="polite">
          {props.error && (
            <p className="inline-error" role="alert">
              {props.error}
            </p>
          )}
          {props.saved && !props.error && (
            <p className="inline-note" role="status">
              Сохранено
            </p>
          )}
        </div>
        <button type="submit" className="button primary" disabled={props.busy || !props.me}>
          Сохранить
        </button>
      </form>
    </section>
  );
}
