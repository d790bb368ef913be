// The chat list menu's actor (alive while the list is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { CHAT_ACTION_TAGS, type ChatAction } from '../../machines/chats/chatActions/chatActions.protocol';

export function useChatActions(isGroup: (conversationId: string) => boolean) {
  const actor = useOwnedActor('chatActions');
  const pending = useSelector(actor, (s) => s?.context.pending ?? null);
  const confirming = useSelector(actor, (s) => s?.hasTag(CHAT_ACTION_TAGS.confirming) ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag(CHAT_ACTION_TAGS.busy) ?? false);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const confirm =
    confirming && pending
      ? pending.kind === 'clear'
        ? { question: 'Очистить историю? Сообщения исчезнут только у вас.', yes: 'Очистить' }
        : isGroup(pending.conversationId)
          ? { question: 'Покинуть группу и удалить чат?', yes: 'Удалить' }
          : { question: 'Удалить чат? Он вернётся с новым сообщением.', yes: 'Удалить' }
      : null;
  return {
    busy,
    error,
    confirm,
    run: (action: ChatAction) => actor.send({ type: 'chatActions.run', action }),
    onConfirm: () => actor.send({ type: 'chatActions.confirm' }),
    onCancel: () => actor.send({ type: 'chatActions.cancel' }),
  };
}
export type ChatActionsView = ReturnType<typeof useChatActions>;
