// «Информация» on one's own message (registry line 'messageInfo', alive while its dialog is open): who read it and when,
// and who has not yet. Views import this module, never messageInfo.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const INFO_FAILED = 'Не удалось загрузить сведения о прочтении';

export interface MessageInfoInput {
  messageId: string;
}

export interface MessageInfoContext {
  messageId: string;
  info: ResponseOf<'messageInfo'> | null;
  error: string | null;
}

export type MessageInfoEvent = { type: 'info.retry' };

/** Tags: 'loading'. */
export type MessageInfoRef = MachineRef<MessageInfoContext, MessageInfoEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/messageActions/messageActions-
 * dialog.effects.ts).
 */
export interface MessageInfoEffects {
  /** GET /api/messages/:id/info. */
  load: PromiseActorLogic<ResponseOf<'messageInfo'>, { messageId: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Информация» of a message (spawned while its dialog is open). */
    messageInfo: MessageInfoRef;
  }
}
