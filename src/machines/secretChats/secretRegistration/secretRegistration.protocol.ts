// This browser's background registration as a device of secret chats (docs/secret-chats.md "Reaching everyone"),
// owned by the chats page's device holder for a person with no secret chat: once the list has painted and the
// browser is idle, it asks the crypto worker to register (keys, identity, key packages, all in the worker), then
// only listens, lightly, for a new sign-in of the same person asking for approval. It hands over to the device
// actor (tag `device`: the holder then spawns `secretDevice` and the approval holder) when the registration needs
// the person (an approval from another device, a token to renew) or a request for approval is open. Views import
// this module, never secretRegistration.machine.ts. A new browser of a person whose identity key is on another
// device asks for approval only when it needs secret chats: it stays `unapproved` (no request, no prompt on the
// other device) until this browser asks on its own (the creation dialog opened; a secret chat in the list starts the
// device actor instead).
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export interface SecretRegistrationInput {
  userId: string;
}

export type SecretRegistrationContext = SecretRegistrationInput;

/**
 * What the worker's registration came to: `device` when the device actor must take over; `unapproved` when the
 * person's identity key is on another device (this one would have to ask for approval, which waits for a need).
 */
export interface RegistrationOutcome {
  device: boolean;
  unapproved?: boolean;
}

export type SecretRegistrationEvent =
  /** `secret:approval` or a reconnection: a new sign-in of this person may be asking; look. */
  | { type: 'secretRegistration.check' }
  /** This unapproved browser asked for approval (its person opened «Новый секретный чат»): the device takes over. */
  | { type: 'secretRegistration.wanted' };

/** A failed registration is tried again after this. */
export const SECRET_REGISTRATION_RETRY_MS = 15_000;

export type SecretRegistrationRef = MachineRef<SecretRegistrationContext, SecretRegistrationEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * register.effects.ts).
 */
export interface SecretRegistrationEffects {
  register: PromiseActorLogic<RegistrationOutcome, SecretRegistrationInput>;
  /** How many requests for approval are open (another device of this person asking). */
  pending: PromiseActorLogic<number, SecretRegistrationInput>;
  /** Tells `secretRegistration.wanted` once this browser asked for approval (the creation dialog registers it). */
  wanted: CallbackActorLogic<SecretRegistrationEvent, SecretRegistrationInput>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretRegistration: SecretRegistrationRef;
  }
}
