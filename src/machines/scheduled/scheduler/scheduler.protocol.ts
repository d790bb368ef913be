// «Отправить позже», «Напомнить» and a chat's «Запланированные» (docs/behaviour.md §10.32; systemId-less, alive while
// its view shows it): the waiting items of one chat, choosing a time, confirming, editing, «Отправить сейчас» and
// deleting. Views import this module, never scheduler.machine.ts.
import type { ScheduledItem } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { Message } from '../../../contract/entities';
import type { PromiseActorLogic } from 'xstate';

export const SCHEDULED_LOAD_FAILED = 'Не удалось загрузить запланированные сообщения';
export const SCHEDULE_FAILED = 'Не удалось запланировать';
export const SCHEDULED_ACTION_FAILED = 'Не удалось выполнить действие';

export interface SchedulerInput {
  conversationId: string;
}

/** What is being scheduled: a text for this chat, a reminder of a message, or an item being edited. */
export type ScheduleDraft =
  | { kind: 'message'; content: string }
  | { kind: 'reminder'; messageId: string; content: string }
  | { kind: 'edit'; id: string; content: string; reminder: boolean };

export interface SchedulerContext {
  conversationId: string;
  items: ScheduledItem[];
  draft: ScheduleDraft | null;
  /** The ISO time chosen, shown for confirming. */
  at: string | null;
  error: string | null;
}

export type SchedulerEvent =
  | { type: 'scheduled.retry' }
  | { type: 'schedule.start'; draft: ScheduleDraft }
  | { type: 'schedule.text'; content: string }
  | { type: 'schedule.pick'; at: string }
  | { type: 'schedule.back' }
  | { type: 'schedule.confirm' }
  | { type: 'schedule.cancel' }
  | { type: 'scheduled.sendNow'; id: string }
  | { type: 'scheduled.delete'; id: string };

export type SchedulerEmitted = { type: 'scheduler.saved'; item: ScheduledItem };

/** Tags: 'loading', 'busy' (a request under way), 'choosing' (the time menu), 'confirming'. */
export type SchedulerRef = MachineRef<SchedulerContext, SchedulerEvent, SchedulerEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/scheduled/scheduled.effects.ts).
 */
export interface SchedulerEffects {
  /** GET /api/conversations/:id/scheduled. */
  load: PromiseActorLogic<{ items: ScheduledItem[] }, { conversationId: string }>;
  /** POST /api/scheduled, POST /api/reminders or PATCH /api/scheduled/:id, by the draft's kind. */
  save: PromiseActorLogic<{ item: ScheduledItem }, { conversationId: string; draft: ScheduleDraft; at: string }>;
  /** POST /api/scheduled/:id/send. */
  sendNow: PromiseActorLogic<{ message: Message }, { id: string }>;
  /** DELETE /api/scheduled/:id. */
  remove: PromiseActorLogic<unknown, { id: string }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Запланированные» of the open chat, with «Отправить позже» and «Напомнить» (spawned while shown). */
    scheduler: SchedulerRef;
  }
}
