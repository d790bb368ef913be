// What a message's menu offers (docs/behaviour.md §10.19), in Telegram's order: reply, copy, forward, pin, select,
// info, edit, then delete (own messages) or hide (someone else's). Pure: the menu renders the list.
import type { MessageRow } from './view-model';

export type MessageAction =
  | 'quote'
  | 'thread'
  | 'copy'
  | 'forward'
  | 'remind'
  | 'pin'
  | 'unpin'
  | 'select'
  | 'info'
  | 'edit'
  | 'report'
  | 'delete'
  | 'hide';

export interface MessageMenuItem {
  action: MessageAction;
  label: string;
  danger?: boolean;
}

export interface MenuOptions {
  /** Pinning is allowed here (both people of a direct chat; a group's owner and admins). */
  canPin: boolean;
  /** Ids of the pinned messages. */
  pinned: ReadonlySet<string>;
  /** «Ответить в обсуждении» is offered (a group with threads on). */
  threads?: boolean;
}

export function menuItems(row: MessageRow, options: MenuOptions): MessageMenuItem[] {
  // A secret message that failed its sender check is nobody's words: nothing to quote, copy or answer.
  const items: MessageMenuItem[] = row.unverified ? [] : [{ action: 'quote', label: 'Цитировать' }];
  const entry = row.type === 'CALL' || row.type === 'SYSTEM';
  if (options.threads && !entry && row.type !== 'ENCRYPTED' && !row.threadRootId)
    items.push({ action: 'thread', label: 'Ответить в обсуждении' });
  if (row.text && !row.unverified) items.push({ action: 'copy', label: 'Копировать текст' });
  // An ENCRYPTED message cannot be forwarded (the server refuses it): its text exists only on the devices. Nor a
  // poll: its votes belong to its chat (docs/behaviour.md §10.33 Polls).
  if (!entry && row.type !== 'ENCRYPTED' && row.type !== 'POLL') items.push({ action: 'forward', label: 'Переслать' });
  // A reminder in «Избранное» at a chosen time (docs/behaviour.md §10.32); a secret chat's text is the devices' alone.
  if (!entry && row.type !== 'ENCRYPTED') items.push({ action: 'remind', label: 'Напомнить' });
  if (options.canPin && !entry)
    items.push(
      options.pinned.has(row.id) ? { action: 'unpin', label: 'Открепить' } : { action: 'pin', label: 'Закрепить' },
    );
  items.push({ action: 'select', label: 'Выбрать' });
  if (row.own && !entry) items.push({ action: 'info', label: 'Информация' });
  if (row.editable) items.push({ action: 'edit', label: 'Изменить' });
  // Someone else's message can be reported to the server's administrators (docs/behaviour.md §10.20).
  if (!row.own && !entry && row.type !== 'ENCRYPTED') items.push({ action: 'report', label: 'Пожаловаться' });
  items.push(
    row.own
      ? { action: 'delete', label: 'Удалить', danger: true }
      : { action: 'hide', label: 'Скрыть у себя', danger: true },
  );
  return items;
}
