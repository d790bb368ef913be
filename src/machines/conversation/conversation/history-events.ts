// What each event does to the open conversation's history, as one pure function (the conversation machine decides
// when an event applies: its conversation, its state; and runs the effects that go with it).
import { REACTION_EMOJI } from '../../../contract/limits';
import type { ConversationContext, ConversationEvent } from './conversation.protocol';
import {
  addReceipts,
  applyEdit,
  hasReacted,
  mergeMessages,
  removeMessage,
  removeMessages,
  setPoll,
  setReactions,
  setThread,
  toggleReaction,
} from './history';

type History = Pick<ConversationContext, 'messages' | 'me'>;

/** Whether the user's own reaction is given (`on`) or taken back by a click on this emoji. */
export function reactionOn(h: History, messageId: string, emoji: string): boolean {
  return !hasReacted(
    h.messages.find((m) => m.id === messageId),
    h.me,
    emoji,
  );
}

/** The history's messages after this event (the same array when it changes nothing). */
export function historyAfter(h: History, event: ConversationEvent): ConversationContext['messages'] {
  const { messages, me } = h;
  switch (event.type) {
    case 'conversation.messageArrived':
    case 'conversation.messageSent':
      return mergeMessages(messages, [event.message]);
    case 'conversation.messageDeleted': {
      // A reply is not in the timeline: its root's «N ответов» changes.
      const rest = removeMessage(messages, event.messageId);
      return event.thread ? setThread(rest, event.thread.rootId, event.thread.summary) : rest;
    }
    case 'conversation.delete':
      return removeMessage(messages, event.messageId);
    case 'conversation.messagesHidden':
      // Shown again elsewhere: the next page brings them back (the machine refetches).
      return event.hidden ? removeMessages(messages, event.messageIds) : messages;
    case 'conversation.receipts':
      return addReceipts(messages, event.userId, event.messageIds);
    case 'conversation.messageEdited':
      return applyEdit(messages, event.messageId, event.content, event.editedAt, event.mentions ?? [], event.entities);
    case 'edit.saved': {
      const m = event.message;
      return m.editedAt ? applyEdit(messages, m.id, m.content, m.editedAt, m.mentions ?? [], m.entities) : messages;
    }
    case 'conversation.reactions':
      return setReactions(messages, event.messageId, event.reactions);
    case 'conversation.preview':
      return messages.map((m) => {
        if (m.id !== event.messageId) return m;
        const { preview: _, ...rest } = m;
        return event.preview ? { ...m, preview: event.preview } : rest;
      });
    case 'conversation.thread':
      return setThread(messages, event.rootId, event.thread);
    case 'conversation.poll':
      return setPoll(messages, event.messageId, event.poll);
    // Shown at once; the server's answer (or reactions:update) replaces it.
    case 'conversation.react': {
      const current = messages.find((m) => m.id === event.messageId)?.reactions ?? [];
      const on = reactionOn(h, event.messageId, event.emoji);
      return setReactions(messages, event.messageId, toggleReaction(current, me, event.emoji, on, REACTION_EMOJI));
    }
    // The server's reactions, unless a later change of the same message is still queued (it answers last).
    case 'queue.done': {
      if (event.queue !== 'reactions') return messages;
      const { request, output, remaining } = event;
      if (remaining.some((c) => c.messageId === request.messageId)) return messages;
      return setReactions(messages, request.messageId, output.reactions);
    }
    default:
      return messages;
  }
}
