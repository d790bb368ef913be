// The group dialog's protocol (registry line 'groupDialog'): the events it accepts and what it emits once a group
// exists. Views import this module, never groupDialog.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export const CREATE_FAILED = 'Не удалось создать беседу';

export interface GroupDialogContext {
  title: string;
  /** Ticked friends' user ids, in the order ticked. */
  selected: string[];
  error: string | null;
}

export type GroupDialogEvent =
  | { type: 'group.close' }
  | { type: 'group.toggle'; userId: string }
  | { type: 'group.titleChanged'; title: string }
  | { type: 'group.create' };

export type GroupDialogEmitted = { type: 'group.created'; conversationId: string };

export type GroupDialogRef = MachineRef<GroupDialogContext, GroupDialogEvent, GroupDialogEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/contacts/contacts-
 * dialog.effects.ts).
 */
export interface GroupDialogEffects {
  createGroup: PromiseActorLogic<ResponseOf<'createConversation'>, BodyOf<'createConversation'>>;
}
