// The one test of «Удалить у меня» / «Скрыть у себя» (hide-messages.ts) that every read listing messages to their
// reader joins: a history page, a thread, the chat's media, the day's first message, a report's context, the list's
// preview and the search.
import { sql } from 'kysely';

/**
 * Not a message `userId` hid for themselves: a probe of hidden_messages' key per row, usually empty. `messageId` is
 * the column holding the message's id in the query it joins.
 */
export const notHiddenBy = (userId: string, messageId: string) =>
  sql<boolean>`NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.message_id = ${sql.ref(messageId)} AND h.user_id = ${userId})`;
