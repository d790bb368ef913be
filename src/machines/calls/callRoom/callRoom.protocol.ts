// A group's call as the people panel runs it (docs/calls.md "Group calls"; alive while the call's overlay is open):
// raised hands in the order the server keeps, «Поднять руку» / «Опустить руку», and an owner's or admin's
// «Выключить микрофон» / «Удалить из звонка» of someone in the call. Being removed myself ends the call on the `call`
// actor (call.removed); being muted counts here (`mutedTimes`), and the conference turns the microphone off. Views
// import this module, never callRoom.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { MachineRef } from '../../shared/machine-ref';

export const CALL_ROOM_NOTICES = {
  /** An owner or admin turned my microphone off (I may turn it on again). */
  muted: 'Администратор выключил ваш микрофон',
  failed: 'Не удалось выполнить действие. Попробуйте ещё раз.',
} as const;

export interface CallRoomInput {
  conversationId: string;
}

export type ModerationAction = 'mute' | 'remove';

export interface CallRoomContext {
  conversationId: string;
  /** Raised hands: user ids in the order they were raised (from groupCall:state). */
  hands: string[];
  /** How many times an owner or admin turned my microphone off since the overlay opened. */
  mutedTimes: number;
  /** Why the last request failed, or that my microphone was turned off; shown until dismissed. */
  notice: string | null;
  /** The hand request under way raises (true) or lowers it. */
  raise: boolean;
  /** The moderation request under way. */
  request: { action: ModerationAction; userId: string } | null;
  /** A state of the call came from the server: the answer to the first read, older maybe, is not taken. */
  heard: boolean;
}

export type CallRoomEvent =
  | { type: 'room.raiseHand' }
  | { type: 'room.lowerHand' }
  /** «Выключить микрофон» (mute) or «Удалить из звонка» (remove) of someone in the call. */
  | { type: 'room.moderate'; action: ModerationAction; userId: string }
  | { type: 'room.dismissNotice' }
  /** The server: the call's state (groupCall:state) of some group. */
  | { type: 'room.state'; conversationId: string; hands: string[] }
  /** The server: an owner or admin turned my microphone off in some group's call. */
  | { type: 'room.muted'; conversationId: string };

/** Tags the view asks: a request under way. */
export const CALL_ROOM_TAGS = { busy: 'busy' } as const;

export type CallRoomRef = MachineRef<CallRoomContext, CallRoomEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/calls/call-room.effects.ts). */
export interface CallRoomEffects {
  /** GET /api/conversations/:id/call: the raised hands when the overlay opens (later changes come as events). */
  currentHands: PromiseActorLogic<string[], { conversationId: string }>;
  /** POST /api/conversations/:id/call/mute or …/remove. */
  moderate: PromiseActorLogic<{ ok: true }, { conversationId: string; userId: string; action: ModerationAction }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** A group's call's hands and moderation (spawned while its overlay is open). */
    callRoom: CallRoomRef;
  }
}
