// The call key of a secret chat's call (registry line 'secretCall', systemId 'secretCall', owned by the call view while
// a secret chat's call is open; docs/secret-chats.md "Calls"). Views and peers import this module, never
// secretCall.machine.ts.

import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';
import type { MachineRef } from '../../shared/machine-ref';

export interface SecretCallInput {
  userId: string;
  conversationId: string;
}

/**
 * A key for LiveKit's frames. `base`: the group's call key of an epoch (the MLS exporter), `epoch` that epoch. The
 * media key: from the base and the call's secret, `epoch` its order in the keyring (group epoch + the secret's
 * generation).
 */
export interface CallKey {
  epoch: number;
  key: Uint8Array;
}

export interface SecretCallContext extends SecretCallInput {
  /** The newest epoch this device's group reached (from the chat's actor); null before any is known. */
  epoch: number | null;
  /** The group's call key of the newest epoch derived so far; null until the first one is. */
  base: CallKey | null;
  /**
   * The media key: the group's call key mixed with the secret only the devices in the call hold; null until this
   * device has the secret (made it, alone in the call, or got it sealed from the call's lead).
   */
  key: CallKey | null;
  /** The call secret's generation: a new one each time a member leaves the call; 0 before any. */
  generation: number;
  /** The room connected (the exchange's hello went out). */
  connected: boolean;
  error: string | null;
}

/** What the call view tells of its room (the media identities are the members' user ids). */
export type SecretCallRoomEvent =
  /** The room connected; `others`: who is in it already. */
  | { type: 'secretCall.connected'; others: string[] }
  | { type: 'secretCall.joined'; identity: string }
  /** Left the call (not moved to another device of theirs); `others`: who is in it now. */
  | { type: 'secretCall.left'; identity: string; others: string[] }
  /** A message of the key exchange from a participant, on the room's data channel. */
  | { type: 'secretCall.data'; from: string; payload: Uint8Array };

/** What the key exchange (the `exchange` effect) tells the machine. */
export type SecretCallExchangeEvent =
  | { type: 'secretCall.key'; key: CallKey; generation: number }
  | { type: 'secretCall.send'; payload: Uint8Array; to: string[] | null };

export type SecretCallEvent =
  /** The chat's actor applied commits: the group is in this epoch now. */
  { type: 'secretCall.epoch'; epoch: number } | SecretCallRoomEvent | SecretCallExchangeEvent;

/**
 * What the exchange hears: the room's events, each newer group call key, and `helloAgain` while connected without
 * the call's key.
 */
export type SecretCallExchangeInput =
  | SecretCallRoomEvent
  | { type: 'secretCall.base'; base: CallKey }
  | { type: 'secretCall.helloAgain' };

/** Connected without the call's key this long, the device says hello to the others again. */
export const HELLO_AGAIN_MS = 2_000;

/** Emitted for the call view to put on the room's data channel (to everyone when `to` is null). */
export type SecretCallEmitted = { type: 'secretCall.send'; payload: Uint8Array; to: string[] | null };

/** The room's data channel topic of the call secret's exchange. */
export const CALL_SECRET_TOPIC = 'beseda-call-secret';

export const CALL_KEY_FAILED = 'Не удалось получить ключ шифрования звонка';

export type SecretCallRef = MachineRef<SecretCallContext, SecretCallEvent, SecretCallEmitted>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * dialogs.effects.ts).
 */
export interface SecretCallEffects {
  /** Sends `secretCall.epoch` whenever this device's group reaches a new epoch. */
  watchEpoch: CallbackActorLogic<SecretCallEvent, SecretCallInput>;
  /** The group's current epoch and its call key (MLS exporter, in the crypto worker). */
  derive: PromiseActorLogic<CallKey, SecretCallInput>;
  /**
   * The call secret's exchange (services/secretChats/call-secret.ts): hears the room and each group call key, sends
   * back the messages to put on the data channel and each new media key.
   */
  exchange: CallbackActorLogic<SecretCallExchangeInput, SecretCallInput>;
}

declare module '../../shared/system' {
  interface SystemActors {
    secretCall: SecretCallRef;
  }
}
