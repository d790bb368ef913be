// «Импорт истории» (docs/behaviour.md §10.39): choose a Telegram or WhatsApp export, watch it upload and be read,
// say who its authors are here («Кто это в Беседе?»), then follow the import («Импорт: 4 200 из 12 345»). Into a
// secret chat the browser reads and encrypts the export itself, so the dialog must stay open meanwhile.
import { useId } from 'react';
import type { HistoryImportInput } from '../../machines/historyImport/historyImport/historyImport.protocol';
import { Modal } from '../shared/Modal';
import { type HistoryImportView, useHistoryImport } from './useHistoryImport';
import './history-import.css';

export interface HistoryImportDialogProps extends HistoryImportInput {
  onClose(): void;
}

/** The dialog with its own actor (alive while it is open). */
export function HistoryImportDialog(props: HistoryImportDialogProps) {
  const { onClose, ...input } = props;
  return <HistoryImport {...useHistoryImport(input)} onClose={onClose} />;
}

const SOURCE = { telegram: 'Telegram', whatsapp: 'WhatsApp' } as const;
const count = (n: number) => n.toLocaleString('ru-RU');

function messagesWord(n: number): string {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return 'сообщение';
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return 'сообщения';
  return 'сообщений';
}

export function HistoryImport(props: HistoryImportView & { onClose(): void }) {
  const fileId = useId();
  const titleId = useId();
  const from = props.source ? SOURCE[props.source] : null;
  return (
    <Modal title="Импорт истории" onClose={props.onClose} className="history-import">
      <div className="history-import-body" aria-busy={props.busy} data-testid="history-import" data-step={props.step}>
        {props.step === 'resuming' && <p role="status">Проверяем, не идёт ли уже импорт…</p>}

        {props.step === 'choose' && (
          <>
            <p className="form-hint">
              Перенесите переписку из Telegram или WhatsApp. В Telegram Desktop: «Экспорт истории чата», формат
              «Машиночитаемый JSON», затем сожмите папку в ZIP. В WhatsApp: «Экспорт чата» — получится ZIP или текстовый
              файл.
              {props.secret && ' Экспорт читается и шифруется в этом браузере: сервер не увидит переписку.'}
            </p>
            {props.secret && props.done > 0 && (
              <p className="form-hint" data-testid="import-stopped">
                Импорт остановился: {count(props.done)} из {count(props.total)}. Выберите тот же файл — импорт
                продолжится с этого места.
              </p>
            )}
            <label className="button history-import-file" htmlFor={fileId}>
              Выбрать файл экспорта
            </label>
            <input
              id={fileId}
              className="visually-hidden"
              type="file"
              accept=".zip,.json,.txt,application/zip,application/json,text/plain"
              data-testid="history-import-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) props.onFile(file);
              }}
            />
          </>
        )}

        {props.step === 'upload' && (
          <div className="history-import-progress">
            <progress max={100} value={props.uploadPercent} aria-label="Загрузка файла" />
            <span role="status">Загрузка файла: {props.uploadPercent} %</span>
          </div>
        )}

        {props.step === 'analyse' && <p role="status">Читаем экспорт…</p>}

        {props.step === 'chooseChat' && (
          <fieldset className="history-import-chats">
            <legend>В экспорте несколько чатов. Какой импортировать?</legend>
            {props.chats.map((c) => (
              <button key={c.id} type="button" className="button ghost" onClick={() => props.onChat(c.id)}>
                {c.name} · {count(c.messageCount)} {messagesWord(c.messageCount)}
              </button>
            ))}
          </fieldset>
        )}

        {props.step === 'map' && (
          <form
            className="history-import-map"
            onSubmit={(e) => {
              e.preventDefault();
              props.onStart();
            }}
          >
            <p className="form-hint">
              {from ? `Экспорт ${from}` : 'Экспорт'}: {count(props.total)} {messagesWord(props.total)}.
            </p>
            {props.intoNewGroup && (
              <label className="history-import-title" htmlFor={titleId}>
                Название новой группы
                <input
                  id={titleId}
                  className="input"
                  value={props.title}
                  maxLength={100}
                  onChange={(e) => props.onTitle(e.target.value)}
                />
              </label>
            )}
            <h3 className="info-section">Кто это в Беседе?</h3>
            <ul className="history-import-authors" aria-label="Авторы">
              {props.authors.map((a) => (
                <li key={a.key} data-testid="import-author">
                  <label>
                    <span className="history-import-author">
                      {a.name}
                      <span className="history-import-count">
                        {count(a.messageCount)} {messagesWord(a.messageCount)}
                      </span>
                    </span>
                    <select
                      className="input"
                      aria-label={`Кто это: ${a.name}`}
                      value={props.mapping[a.key] ?? ''}
                      onChange={(e) => props.onMap(a.key, e.target.value || null)}
                    >
                      <option value="">
                        Оставить имя «{a.name} (из {from ?? 'экспорта'})»
                      </option>
                      {props.candidates.map((m) => (
                        <option key={m.userId} value={m.userId}>
                          {m.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </li>
              ))}
            </ul>
            <div className="modal-actions">
              <button type="submit" className="button" disabled={props.busy}>
                Импортировать
              </button>
              <button type="button" className="button ghost" disabled={props.busy} onClick={props.onCancel}>
                Отменить
              </button>
            </div>
          </form>
        )}

        {props.step === 'run' && (
          <div className="history-import-progress">
            <progress max={Math.max(1, props.total)} value={props.done} aria-label="Импорт" />
            <span role="status" data-testid="import-progress">
              {props.progress}
            </span>
            {props.secret ? (
              <p className="form-hint">
                Не закрывайте окно: сообщения шифруются в этом браузере. Если страница закроется, выберите тот же файл
                снова — импорт продолжится с того же места.
              </p>
            ) : (
              <p className="form-hint">Импорт идёт на сервере: окно можно закрыть.</p>
            )}
          </div>
        )}

        {props.step === 'done' && (
          <p role="status" className="inline-note">
            Готово: импортировано {count(props.total)} {messagesWord(props.total)}
            {from ? ` из ${from}` : ''}.
          </p>
        )}
        {props.step === 'cancelled' && (
          <p role="status" className="inline-note">
            {props.secret ? 'Импорт остановлен. Выберите тот же файл, чтобы продолжить.' : 'Импорт отменён.'}
          </p>
        )}

        {props.error && (
          <p className="inline-error" role="alert">
            {props.error}
          </p>
        )}

        <div className="modal-actions">
          {props.cancellable && props.step !== 'map' && (
            <button
              type="button"
              className="button ghost"
              disabled={props.busy && props.step !== 'analyse'}
              onClick={props.onCancel}
            >
              {props.secret ? 'Остановить' : 'Отменить импорт'}
            </button>
          )}
          {(props.step === 'failed' || props.step === 'cancelled') && (
            <button type="button" className="button" onClick={props.onAgain}>
              Выбрать другой файл
            </button>
          )}
          {props.step !== 'map' && (
            <button type="button" className="button ghost" onClick={props.onClose}>
              Закрыть
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}
