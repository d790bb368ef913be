// The open call's chat panel: the call's conversation (opened by the call actor when the call starts; its actor and
// its people from the chats feature's narrow hooks) and the composer, which sends what is typed there through its
// outbox like any message.
import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { outboxOf } from '../../machines/composer/composer/composer.protocol';
import { useSessionActor, useSystemActor } from '../app/RuntimeContext';
import { useChatEntry, useOpenConversation } from '../shared/useChatList';
import { type ConversationChat, callChatLines } from './call-chat';

const NONE: never[] = [];

export function useCallChat(conversationId: string | null): ConversationChat | null {
  const me = useSelector(useSessionActor('session'), (s) => s.context.session?.user.id ?? null);
  const entry = useChatEntry(conversationId);
  const people = entry?.conversation.participants;
  const secret = entry?.conversation.secret === true;
  const conversation = useOpenConversation();
  const composer = useSystemActor('composer');
  const messages = useSelector(conversation, (s) =>
    s && s.context.conversationId === conversationId ? s.context.messages : NONE,
  );
  const outboxRef = useSelector(composer, outboxOf);
  const outbox = useSelector(outboxRef, (s) => s?.context.items ?? NONE);
  const lines = useMemo(
    () =>
      conversationId && me
        ? callChatLines(
            messages,
            outbox,
            conversationId,
            me,
            (people ?? NONE).map((p) => p.user),
          )
        : NONE,
    [messages, outbox, conversationId, me, people],
  );
  const onSend = useCallback(
    (text: string) => {
      if (conversationId)
        composer?.send({ type: 'composer.sendText', conversationId, text, at: new Date().toISOString(), secret });
    },
    [composer, conversationId, secret],
  );
  if (!conversationId || !composer) return null;
  return { lines, onSend };
}
