// The read mark of an own message, for the chat tile and the bubbles. Apart from history.ts: the chat list (first
// bundle) needs only this, the history rules load with the conversation's machines.
import type { Message } from '../../../contract/entities';

/** Own message delivery as the bubble shows it: read once another participant has a receipt. */
export function isReadByOthers(m: Pick<Message, 'senderId' | 'receipts'>): boolean {
  return m.receipts.some((r) => r.userId !== m.senderId && (r.status === 'READ' || r.status === 'SEEN'));
}
