// Settings: «Папки» (docs/behaviour.md §10.47) — one's folders in the order of their tabs, each with «Выше», «Ниже»,
// «Изменить» and «Удалить», and «Создать папку» while there are fewer than FOLDERS.max; the dialog edits the name,
// the rules and the chosen chats.
import { type FormEvent, useId, useState } from 'react';
import {
  type ChatFolderData,
  FOLDERS,
  type FolderDraft,
  type FolderRules,
  NO_RULES,
} from '../../contract/chat-folders';
import { Modal } from '../shared/Modal';
import { type FolderSettingsView, type PickableChat, useFolderSettings } from './useFolderSettings';
import './folders.css';

/** The settings section with its own folders actor (alive while it is shown). */
export function FoldersSection() {
  return <FolderSettings folders={useFolderSettings()} />;
}

const RULES: { key: keyof FolderRules; label: string }[] = [
  { key: 'direct', label: 'Личные' },
  { key: 'groups', label: 'Группы' },
  { key: 'unread', label: 'Непрочитанные' },
  { key: 'muted', label: 'Без звука' },
];

/** What a folder shows, in words, under its name. */
function summary(folder: ChatFolderData): string {
  const rules = RULES.filter((r) => folder.rules[r.key]).map((r) => r.label.toLowerCase());
  const chats = folder.includedIds.length;
  return [...rules, ...(chats > 0 ? [`чатов: ${chats}`] : [])].join(', ');
}

export function FolderSettings({ folders: f }: { folders: FolderSettingsView }) {
  return (
    <section className="card form settings-folders" aria-labelledby="settings-folders" aria-busy={f.busy}>
      <h2 className="form-title" id="settings-folders">
        Папки
      </h2>
      <p className="form-hint">
        Папки показываются вкладками над списком чатов на всех ваших устройствах. «Все чаты» всегда первая.
      </p>
      {f.error && !f.dialog && (
        <p className="inline-error" role="alert">
          {f.error}{' '}
          {!f.loaded && (
            <button type="button" className="link-button" onClick={f.load}>
              Повторить
            </button>
          )}
        </p>
      )}
      {f.loaded && f.folders.length === 0 && <p className="form-hint">Папок пока нет</p>}
      {f.folders.length > 0 && (
        <ul className="folders-list" data-testid="folders-list">
          {f.folders.map((folder, i) => (
            <li key={folder.id} data-testid="folder-row">
              <span className="folder-name">
                {folder.name}
                <span className="form-hint"> — {summary(folder)}</span>
              </span>
              <button
                type="button"
                className="button ghost"
                disabled={f.busy || i === 0}
                aria-label={`Выше: ${folder.name}`}
                onClick={() => f.move(folder.id, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="button ghost"
                disabled={f.busy || i === f.folders.length - 1}
                aria-label={`Ниже: ${folder.name}`}
                onClick={() => f.move(folder.id, 1)}
              >
                ↓
              </button>
              <button type="button" className="button ghost" disabled={f.busy} onClick={() => f.edit(folder.id)}>
                Изменить
              </button>
              <button type="button" className="button ghost" disabled={f.busy} onClick={() => f.remove(folder.id)}>
                Удалить
              </button>
            </li>
          ))}
        </ul>
      )}
      {f.loaded && f.folders.length < FOLDERS.max && (
        <div className="form-actions">
          <button type="button" className="button primary" disabled={f.busy} onClick={f.create}>
            Создать папку
          </button>
        </div>
      )}
      {f.dialog && (
        <FolderDialog
          key={f.editing?.id ?? 'new'}
          folder={f.editing}
          chats={f.chats}
          busy={f.busy}
          error={f.error}
          onSave={f.save}
          onCancel={f.cancel}
        />
      )}
    </section>
  );
}

export interface FolderDialogProps {
  /** The folder edited, null for a new one. */
  folder: ChatFolderData | null;
  chats: PickableChat[];
  busy: boolean;
  error: string | null;
  onSave(draft: FolderDraft): void;
  onCancel(): void;
}

export function FolderDialog(props: FolderDialogProps) {
  const nameId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState<FolderDraft>(() =>
    props.folder
      ? {
          name: props.folder.name,
          rules: props.folder.rules,
          includedIds: props.folder.includedIds,
          excludedIds: props.folder.excludedIds,
        }
      : { name: '', rules: NO_RULES, includedIds: [], excludedIds: [] },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSave(draft);
  };
  const toggleRule = (key: keyof FolderRules) =>
    setDraft((d) => ({ ...d, rules: { ...d.rules, [key]: !d.rules[key] } }));
  const toggleChat = (id: string) =>
    setDraft((d) => ({
      ...d,
      includedIds: d.includedIds.includes(id) ? d.includedIds.filter((c) => c !== id) : [...d.includedIds, id],
      excludedIds: d.excludedIds.filter((c) => c !== id),
    }));
  return (
    <Modal title={props.folder ? 'Изменить папку' : 'Новая папка'} onClose={props.onCancel} className="folder-dialog">
      <form className="form" onSubmit={submit} aria-busy={props.busy}>
        <div className="field">
          <label htmlFor={nameId}>Название</label>
          <input
            id={nameId}
            name="folderName"
            maxLength={FOLDERS.nameMax}
            value={draft.name}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? errorId : undefined}
            onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          />
        </div>
        <fieldset className="pick-fieldset">
          <legend className="section-title">Правила</legend>
          <div className="folder-rules">
            {RULES.map((r) => (
              <label key={r.key} className="folder-rule">
                <input type="checkbox" checked={draft.rules[r.key]} onChange={() => toggleRule(r.key)} /> {r.label}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="pick-fieldset">
          <legend className="section-title">Чаты</legend>
          {props.chats.length === 0 ? (
            <p className="muted">Чатов пока нет</p>
          ) : (
            <ul className="pick-list">
              {props.chats.map((c) => {
                const ticked = draft.includedIds.includes(c.id);
                return (
                  <li key={c.id}>
                    <label className={`pick-row ${ticked ? 'ticked' : ''}`}>
                      <input type="checkbox" checked={ticked} onChange={() => toggleChat(c.id)} />
                      <span className="person-name">{c.title}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </fieldset>
        {props.error && (
          <p className="inline-error" role="alert" id={errorId}>
            {props.error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button ghost" onClick={props.onCancel}>
            Отмена
          </button>
          <button type="submit" className="button primary" disabled={props.busy}>
            Сохранить
          </button>
        </div>
      </form>
    </Modal>
  );
}
