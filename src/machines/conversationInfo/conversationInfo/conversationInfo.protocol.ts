// «Информация» beside the open conversation (registry line 'conversationInfo', alive while the panel is open): a group's
// members and what the user's role lets them do there — add friends, remove members, make and unmake admins, hand
// ownership over, rename, leave (confirmed). Views import this module, never conversationInfo.machine.ts.
import type { ParticipantRole } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** One change asked of the server. */
export type GroupAction =
  | { kind: 'add'; userIds: string[] }
  | { kind: 'remove'; userId: string }
  | { kind: 'role'; userId: string; role: ParticipantRole }
  | { kind: 'rename'; title: string }
  | { kind: 'leave' }
  /** «Открытая группа» on or off (docs/behaviour.md §10.25). */
  | { kind: 'open'; open: boolean }
  /** «Обсуждения» on or off (owner and admins). */
  | { kind: 'threads'; enabled: boolean };

export const ACTION_FAILED = 'Не удалось выполнить действие. Попробуйте ещё раз.';

export interface ConversationInfoInput {
  conversationId: string;
}

export interface ConversationInfoContext {
  conversationId: string;
  /** The change waiting for a confirmation (leaving, removing) or being sent. */
  pending: GroupAction | null;
  /** Friends ticked in «Добавить участников». */
  selected: string[];
  /** The title being typed in «Изменить название». */
  title: string;
  error: string | null;
}

export type ConversationInfoEvent =
  | { type: 'info.addOpen' }
  | { type: 'info.toggle'; userId: string }
  | { type: 'info.addConfirm' }
  | { type: 'info.renameOpen'; title: string }
  | { type: 'info.titleChanged'; title: string }
  | { type: 'info.renameConfirm' }
  | { type: 'info.role'; userId: string; role: ParticipantRole }
  | { type: 'info.remove'; userId: string }
  | { type: 'info.leave' }
  | { type: 'info.setOpen'; open: boolean }
  | { type: 'info.threads'; enabled: boolean }
  | { type: 'info.confirm' }
  | { type: 'info.cancel' };

/** The user left the group: whoever shows the panel closes it (the list drops the chat on conversation:removed). */
export type ConversationInfoEmitted = { type: 'info.left'; conversationId: string };

/** Tags the view asks: what is shown besides the panel, and whether a request is under way. */
export const INFO_TAGS = {
  adding: 'adding',
  renaming: 'renaming',
  confirming: 'confirming',
  busy: 'busy',
} as const;

export type ConversationInfoRef = MachineRef<ConversationInfoContext, ConversationInfoEvent, ConversationInfoEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversationInfo/conversationInfo.effects.ts).
 */
export interface ConversationInfoEffects {
  groupAction: PromiseActorLogic<unknown, { conversationId: string; action: GroupAction }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Информация» of the open conversation (spawned while the panel is shown). */
    conversationInfo: ConversationInfoRef;
  }
}
