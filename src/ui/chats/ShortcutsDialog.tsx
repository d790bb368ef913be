// «Сочетания клавиш» (Ctrl/⌘+/, docs/behaviour.md §10.49): every key of the app, what it does, in a modal dialog.
import { Modal } from '../shared/Modal';

/** The keys as the dialog lists them (docs/accessibility.md «Клавиатура» says the same in English). */
export const SHORTCUTS: readonly { group: string; keys: readonly (readonly [string, string])[] }[] = [
  {
    group: 'Везде',
    keys: [
      ['Ctrl+K', 'Перейти к чату по названию'],
      ['Alt+↑ / Alt+↓', 'Предыдущий / следующий чат списка'],
      ['Ctrl+/', 'Сочетания клавиш'],
      ['/', 'Поиск по сообщениям'],
      ['Esc', 'Закрыть просмотр, меню, окно или панель — по одному'],
      ['Tab / Shift+Tab', 'Следующая / предыдущая кнопка или поле'],
    ],
  },
  {
    group: 'Список чатов',
    keys: [
      ['Enter', 'Открыть чат'],
      ['Shift+F10 или клавиша меню', 'Действия с чатом'],
    ],
  },
  {
    group: 'Сообщения',
    keys: [
      ['Shift+F10 или клавиша меню', 'Действия с сообщением: ответить, реакция, переслать, обсуждение'],
      ['↑ / ↓, Home / End', 'Пункты меню'],
      ['← / →', 'Перемотка голосового сообщения'],
    ],
  },
  {
    group: 'Поле сообщения',
    keys: [
      ['Enter', 'Отправить'],
      ['Shift+Enter', 'Новая строка'],
      ['↑ в пустом поле', 'Изменить последнее сообщение'],
      ['Esc', 'Отменить ответ или изменение'],
      ['Ctrl+B / Ctrl+I / Ctrl+U', 'Жирный / курсив / подчёркнутый'],
      ['Ctrl+K на выделении', 'Ссылка'],
      ['«Прикрепить»', 'Фото или файл вместо перетаскивания'],
    ],
  },
  {
    group: 'Смайлики и реакции',
    keys: [
      ['← → ↑ ↓', 'Выбрать'],
      ['Enter', 'Вставить или поставить'],
    ],
  },
];

export function ShortcutsDialog(props: { onClose(): void }) {
  return (
    <Modal title="Сочетания клавиш" onClose={props.onClose} className="keys-dialog shortcuts-dialog">
      <p className="muted">На Mac вместо Ctrl — ⌘.</p>
      {SHORTCUTS.map((part) => (
        <section key={part.group} className="shortcuts-group">
          <h3>{part.group}</h3>
          <dl>
            {part.keys.map(([key, what]) => (
              <div key={key + what} className="shortcuts-row">
                <dt>
                  <kbd>{key}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Modal>
  );
}
