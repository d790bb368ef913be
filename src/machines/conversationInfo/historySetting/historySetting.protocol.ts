// «История для новых участников» in a group's «Информация» (owner and admins; alive while the setting is shown):
// «Видна» or «Скрыта», one request at a time. The group's value itself comes with the chats list
// (conversation:updated), so the actor keeps only the choice being saved and what went wrong. Views import this
// module, never historySetting.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const HISTORY_FAILED = 'Не удалось изменить настройку. Попробуйте ещё раз.';

export interface HistorySettingInput {
  conversationId: string;
}

export interface HistorySettingContext {
  conversationId: string;
  /** The choice being saved (shown at once), null otherwise. */
  choice: boolean | null;
  error: string | null;
}

export type HistorySettingEvent =
  /** «Видна» (true) or «Скрыта» (false). */
  { type: 'history.set'; visible: boolean } | { type: 'history.dismiss' };

/** Tags the view asks: a request under way, a failure to show. */
export const HISTORY_TAGS = { saving: 'saving', failed: 'failed' } as const;

export type HistorySettingRef = MachineRef<HistorySettingContext, HistorySettingEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversationInfo/conversationInfo.effects.ts).
 */
export interface HistorySettingEffects {
  saveHistory: PromiseActorLogic<unknown, { conversationId: string; visible: boolean }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** A group's «История для новых участников» (spawned while «Информация» shows it). */
    historySetting: HistorySettingRef;
  }
}
