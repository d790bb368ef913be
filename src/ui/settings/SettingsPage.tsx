// The settings page /settings (docs/behaviour.md §2): 'Профиль' with Имя, Статус (the four presence values in
// Russian), О себе and 'Сохранить'. The form starts from the own record and starts again when it changes.
import { type FormEvent, type ReactNode, Suspense, useEffect, useId, useState } from 'react';
import type { PresenceStatus, User } from '../../contract/entities';
import { displayName } from '../../contract/format';
import { LIMITS } from '../../contract/limits';
import {
  DEFAULT_MESSAGE_PRIVACY,
  MESSAGE_PRIVACY,
  MESSAGE_PRIVACY_LABELS,
  type MessagePrivacy,
} from '../../contract/message-privacy';
import type { ProfileFields } from '../../machines/profile/profile/profile.protocol';
import {
  AccountDeletionSection,
  DataExportSection,
  DevicesSection,
  PasswordSection,
  SecuritySection,
  SignInMethodsSection,
} from '../account/index';
import { BlockedUsersSection } from '../blocking/index';
import { FoldersSection } from '../folders/deferred';
import { HistoryImportSection } from '../historyImport/index';
import { SettingsInvitesSection } from '../inviteCodes/index';
import { CustomStatusSection } from '../profile/deferred';
import { LazySecretRecoverySection } from '../secretChats/deferred';
import { InsecureText } from '../shared/InsecureNotice';
import { ThemeSection, useTheme } from '../theme/index';
import { type NotificationSettings, useNotificationSettings } from './useNotificationSettings';
import { useSettings } from './useSettings';
import './settings.css';

export const STATUS_OPTIONS: { value: PresenceStatus; label: string }[] = [
  { value: 'ONLINE', label: 'ОНЛАЙН' },
  { value: 'AWAY', label: 'Отошел' },
  { value: 'DND', label: 'Не беспокоить' },
  { value: 'OFFLINE', label: 'Оффлайн' },
];

export function SettingsPage() {
  const s = useSettings();
  const n = useNotificationSettings();
  const theme = useTheme();
  return (
    <SettingsPageView {...s} {...n}>
      {s.me && <CustomStatusSection current={s.me.customStatus ?? null} />}
      <ThemeSection choice={theme.choice} onChoose={theme.choose} />
      <FoldersSection />
      <SecuritySection />
      <DevicesSection />
      {/* Its own boundary: the page shows while the card's code loads. */}
      <Suspense fallback={null}>{s.me && <LazySecretRecoverySection userId={s.me.id} />}</Suspense>
      <SettingsInvitesSection />
      <SignInMethodsSection />
      <PasswordSection />
      <BlockedUsersSection />
      <DataExportSection />
      {s.me && <HistoryImportSection userId={s.me.id} name={displayName(s.me)} />}
      <AccountDeletionSection />
    </SettingsPageView>
  );
}

export interface SettingsPageViewProps extends Partial<NotificationSettings> {
  me: User | null;
  /** The own record has been fetched (until then the stored one is shown). */
  loaded: boolean;
  busy: boolean;
  saved: boolean;
  error: string | null;
  onSave: (fields: ProfileFields) => void;
  /** The account sections (sign-ins, password), rendered after the rest. */
  children?: ReactNode;
}

const fieldsOf = (me: User | null): ProfileFields => ({
  displayName: me?.displayName ?? '',
  status: me?.status ?? 'ONLINE',
  bio: me?.bio ?? '',
  messagePrivacy: me?.messagePrivacy ?? DEFAULT_MESSAGE_PRIVACY,
});

/** «Кто может мне писать» (docs/behaviour.md §10.26): friends always may, a block refuses whatever is chosen. */
const PRIVACY_OPTIONS = MESSAGE_PRIVACY.map((value) => ({ value, label: MESSAGE_PRIVACY_LABELS[value] }));

export function SettingsPageView({ children, ...props }: SettingsPageViewProps) {
  const [fields, setFields] = useState<ProfileFields>(() => fieldsOf(props.me));
  const ids = { name: useId(), status: useId(), bio: useId(), privacy: useId(), privacyHint: useId() };
  // A new own record (fetched, saved, changed in another tab) resets the form to it.
  useEffect(() => setFields(fieldsOf(props.me)), [props.me]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave(fields);
  };
  const set = <K extends keyof ProfileFields>(key: K, value: ProfileFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));
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
          <select
            id={ids.status}
            name="status"
            value={fields.status}
            onChange={(e) => set('status', e.target.value as PresenceStatus)}
          >
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
        <div className="field">
          <label htmlFor={ids.privacy}>Кто может мне писать</label>
          <select
            id={ids.privacy}
            name="messagePrivacy"
            aria-describedby={ids.privacyHint}
            value={fields.messagePrivacy}
            onChange={(e) => set('messagePrivacy', e.target.value as MessagePrivacy)}
          >
            {PRIVACY_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <p className="hint" id={ids.privacyHint}>
            Друзья могут писать всегда. Заблокированные — никогда.
          </p>
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
      {props.onNotifications && <NotificationsCard {...(props as NotificationSettings)} />}
      {children}
    </section>
  );
}

/** «Уведомления»: asks the browser's permission when switched on (never at page load); the text switch below it. */
function NotificationsCard(props: NotificationSettings) {
  const ids = { on: useId(), text: useId(), note: useId() };
  return (
    <section className="card form settings-notifications" aria-labelledby="settings-notifications">
      <h2 className="form-title" id="settings-notifications">
        Уведомления
      </h2>
      <div className="switch-row">
        <input
          id={ids.on}
          type="checkbox"
          role="switch"
          className="switch"
          checked={props.notificationsOn}
          aria-checked={props.notificationsOn}
          disabled={!props.notificationsAvailable || props.notificationsBusy}
          aria-describedby={props.notificationsNote ? ids.note : undefined}
          onChange={(e) => props.onNotifications(e.target.checked)}
        />
        <label htmlFor={ids.on}>Уведомления</label>
      </div>
      <div className="switch-row">
        <input
          id={ids.text}
          type="checkbox"
          role="switch"
          className="switch"
          checked={props.showText}
          aria-checked={props.showText}
          disabled={!props.notificationsOn || props.notificationsBusy}
          onChange={(e) => props.onShowText(e.target.checked)}
        />
        <label htmlFor={ids.text}>Показывать текст сообщений</label>
      </div>
      <div aria-live="polite">
        {props.notificationsNote && (
          <p className="form-hint" id={ids.note}>
            {props.notificationsInsecure ? (
              <InsecureText topic="notifications" page={props.notificationsInsecure} />
            ) : (
              props.notificationsNote
            )}
          </p>
        )}
      </div>
    </section>
  );
}
