// The open call's chat panel from the chats actor: the call's conversation (opened by the call actor when the call
// starts) and the composer, which sends what is typed there through its outbox like any message.
import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import type { ComposerRef } from '../../machines/composer/composer/composer.protocol';
import type { ConversationRef } from '../../machines/conversation/conversation/conversation.protocol';
import { useSystemActor } from '../app/RuntimeContext';
import { type ConversationChat, callChatLines } from './call-chat';

const NONE: never[] = [];

export function useCallChat(conversationId: string | null): ConversationChat | null {
  const chats = useSystemActor('chats');
  const me = useSelector(chats, (s) => s?.context.me ?? null);
  const people = useSelector(
    chats,
    (s) => s?.context.entries.find((e) => e.conversation.id === conversationId)?.conversation.participants,
  );
  const conversation = useSelector(chats, (s) => s?.children.conversation as ConversationRef | undefined);
  const composer = useSelector(chats, (s) => s?.children.composer as ComposerRef | undefined);
  const messages = useSelector(conversation, (s) =>
    s && s.context.conversationId === conversationId ? s.context.messages : NONE,
  );
  const outboxRef = useSelector(composer, (s) => s?.children.outbox);
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
        composer?.send({ type: 'composer.sendText', conversationId, text, at: new Date().toISOString() });
    },
    [composer, conversationId],
  );
  if (!chats || !conversationId || !composer) return null;
  return { lines, onSend };
}
