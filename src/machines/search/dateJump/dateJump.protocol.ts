// The «Перейти к дате» actor's protocol (registry line `dateJump`, owned by the open conversation's search bar,
// its code loaded with it): the day the bar sends, and what it reads. Views import this module, never the machine.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const NOTHING_SINCE_DAY = 'С этого дня сообщений нет';
export const DATE_JUMP_FAILED = 'Не удалось перейти к дате';

export interface DateJumpContext {
  /** The day asked last. */
  asked: DayRequest | null;
  /** Why the last jump went nowhere (Russian, for the user). */
  error: string | null;
}

/** A conversation and a day of the user's calendar (`YYYY-MM-DD`). */
export interface DayRequest {
  conversationId: string;
  day: string;
}

export type DateJumpEvent = { type: 'dateJump.go' } & DayRequest;

export type DateJumpRef = MachineRef<DateJumpContext, DateJumpEvent>;

/** The machine's port (src/services/search/dateJump.effects.ts). */
export interface DateJumpEffects {
  /** GET /api/conversations/:id/messages/at-date with the browser's offset from UTC for that day. */
  findDay: PromiseActorLogic<{ messageId: string | null }, DayRequest>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Перейти к дате» of the open conversation's search bar. */
    dateJump: DateJumpRef;
  }
}
