// Messages (server/messages/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./messages.ts.
import type { RouteTable } from './route-info';

export const messagesRoutes = {
  messages: { method: 'GET', path: '/conversations/:id/messages', auth: true },
  /** «Перейти к дате»: the first message of a day of the user's calendar. */
  messageAtDate: { method: 'GET', path: '/conversations/:id/messages/at-date', auth: true },
  /** «Медиа», «Файлы», «Ссылки», «Голосовые» of «Информация»: one kind's messages, newest first (§10.46). */
  chatMedia: { method: 'GET', path: '/conversations/:id/media', auth: true },
  send: { method: 'POST', path: '/conversations/send', auth: true },
  deleteMessage: { method: 'POST', path: '/messages/delete', auth: true },
  deletedMessages: { method: 'GET', path: '/messages/deleted', auth: true },
  editMessage: { method: 'POST', path: '/messages/edit', auth: true },
  react: { method: 'POST', path: '/messages/react', auth: true },
  hideMessages: { method: 'POST', path: '/messages/hide', auth: true },
  forwardMessages: { method: 'POST', path: '/messages/forward', auth: true },
  pinMessage: { method: 'POST', path: '/messages/pin', auth: true },
  pins: { method: 'GET', path: '/conversations/:id/pins', auth: true },
  messageInfo: { method: 'GET', path: '/messages/:id/info', auth: true },
  messageEdits: { method: 'GET', path: '/messages/:id/edits', auth: true },
  receipts: { method: 'POST', path: '/messages/receipts', auth: true },
  markRead: { method: 'POST', path: '/messages/mark-conversation-read', auth: true },
} as const satisfies RouteTable;
