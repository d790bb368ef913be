// The call's chat is its conversation: these lines are the conversation's recent messages (and the own ones still
// in the outbox), in the shape the call view's chat panel draws. Pure (tested in src/ui/conversation/voice-call-text.test.ts).
import type { Message, PublicUser } from '../../contract/entities';
import type { OutboxItem } from '../../machines/composer/index';
import { entryPreview } from '../conversation/index';

export interface CallChatLine {
  id: string;
  timestamp: number;
  message: string;
  from: { identity: string; name: string; isLocal: boolean };
}

/** A conversation call's chat panel: the conversation's lines, and sending a text to it. */
export interface ConversationChat {
  lines: CallChatLine[];
  onSend(text: string): void;
}

/** Lines the panel keeps: the conversation's latest. */
export const CALL_CHAT_LINES = 50;

/** A line's words: a voice message, a call or a service entry (a pin notice …) as the list says it, else its text,
 * else what it holds. */
function textOf(m: Message, me: string): string {
  const entry = entryPreview(m, me);
  if (entry !== null) return entry;
  if (m.content) return m.content;
  const first = m.attachments[0];
  if (!first) return '';
  return first.type === 'IMAGE' ? 'Изображение' : `Файл: ${first.name ?? 'файл'}`;
}

export function callChatLines(
  messages: Message[],
  outbox: OutboxItem[],
  conversationId: string,
  me: string,
  people: PublicUser[],
): CallChatLine[] {
  const names = new Map(people.map((p) => [p.id, p.displayName]));
  const delivered = new Set(messages.map((m) => m.clientMessageId).filter(Boolean));
  const lines: CallChatLine[] = messages.map((m) => ({
    id: m.id,
    timestamp: Date.parse(m.createdAt),
    message: textOf(m, me),
    from: { identity: m.senderId, name: names.get(m.senderId) ?? 'Участник', isLocal: m.senderId === me },
  }));
  for (const item of outbox) {
    const elsewhere = item.conversationId !== conversationId || item.threadRootId;
    if (elsewhere || item.kind !== 'text' || delivered.has(item.clientMessageId)) continue;
    lines.push({
      id: item.id,
      timestamp: Date.parse(item.createdAt),
      message: item.content,
      from: { identity: me, name: names.get(me) ?? 'Вы', isLocal: true },
    });
  }
  return lines.slice(-CALL_CHAT_LINES);
}
