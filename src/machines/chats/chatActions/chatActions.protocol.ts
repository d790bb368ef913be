// One's own actions on a chat from the list's menu (registry line 'chatActions', alive while the chats list is shown):
// «Без звука» / «Включить звук», «Закрепить» / «Открепить», «В архив» / «Из архива», «Пометить как (не)прочитанное»,
// «Очистить историю» and «Удалить чат» (these two asked first). The list follows from the server's conversation:settings and conversation:removed.
// Views import this module, never chatActions.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type ChatSettingsChange = {
  mutedUntil?: string | null;
  pinned?: boolean;
  archived?: boolean;
  /** «Пометить как непрочитанное» / «Пометить как прочитанное». */
  markedUnread?: boolean;
};

export type ChatAction =
  | { kind: 'settings'; conversationId: string; change: ChatSettingsChange }
  | { kind: 'clear'; conversationId: string }
  | { kind: 'hide'; conversationId: string };

export const CHAT_ACTION_FAILED = 'Не удалось изменить чат. Попробуйте ещё раз.';

export interface ChatActionsContext {
  /** The action waiting for its confirmation, or being sent. */
  pending: ChatAction | null;
  error: string | null;
}

export type ChatActionsEvent =
  | { type: 'chatActions.run'; action: ChatAction }
  | { type: 'chatActions.confirm' }
  | { type: 'chatActions.cancel' };

export const CHAT_ACTION_TAGS = { confirming: 'confirming', busy: 'busy' } as const;

export type ChatActionsRef = MachineRef<ChatActionsContext, ChatActionsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/chats/chats-menu.effects.ts). */
export interface ChatActionsEffects {
  runChatAction: PromiseActorLogic<unknown, ChatAction>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The chat list's menu actions (spawned while the list is shown). */
    chatActions: ChatActionsRef;
  }
}
