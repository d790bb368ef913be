// Effects that several machines' ports name alike: the clipboard's copy and an owner's code that loads later.
import type { AnyActorLogic, PromiseActorLogic } from 'xstate';

/** The wired machines an owner fetched, by registry id (src/machines/shared/owned-code.ts). */
export type OwnedCode<K extends string> = Record<K, AnyActorLogic>;

/** A machine's `copyText` actor (src/services/app/clipboard.ts provides it; shared/clipboard.ts is its region). */
export type CopyTextEffect = PromiseActorLogic<unknown, { text: string }>;

/** An owner's `loadOwned` actor (src/machines/app/wiring.ts provides it). */
export type LoadOwnedEffect<K extends string> = PromiseActorLogic<OwnedCode<K>, unknown>;
