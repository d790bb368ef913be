// The composer's emitted events the open conversation hears: an own message the server has (shown at once; a file
// send also reads the history again, docs/behaviour.md §4), and a send in this conversation (it goes to the bottom).
import { type EventObject, fromCallback } from 'xstate';
import { systemActor } from '../../shared/system';
import type { ConversationEvent } from './conversation.protocol';

export const composerReports = fromCallback<EventObject, { conversationId: string }, ConversationEvent>(
  ({ system, input, sendBack }) => {
    const composer = systemActor(system, 'composer');
    if (!composer) return;
    const delivered = composer.on('composer.delivered', (e) => {
      // A thread reply is not in the timeline (its root's summary comes with thread:reply).
      if (e.message.threadRootId) return;
      sendBack({ type: 'conversation.messageSent', message: e.message });
      if (e.refresh) sendBack({ type: 'conversation.refresh' });
    });
    const sent = composer.on('composer.sent', (e) => {
      if (e.conversationId === input.conversationId) sendBack({ type: 'conversation.ownSent' });
    });
    return () => {
      delivered.unsubscribe();
      sent.unsubscribe();
    };
  },
);
