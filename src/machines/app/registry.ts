// The registry: every actor of the app, one line each. The lines are the features' own
// (src/machines/<feature>/actors.ts: machine, lifetime, owner, systemId, input); this module only concatenates them.
// Their effects are the features' too (src/services/<feature>/effects.ts), given to the runtime joined
// (src/services/app/app-effects.ts); src/machines/app/wiring.ts provides each line from its entry. The root's spawn
// list, the diagram list and the check of the typed system map all derive from it.
//
// - lifetime 'session': spawned by the root for the whole session, in START_ORDER below; one with `load` is spawned
//   as soon as its code is here (fetched once the chat list has painted), and what is sent to its systemId before
//   then is kept and delivered to it, in order (src/machines/app/app.machine.ts);
// - lifetime 'owned': lives exactly while its owner shows it: owner 'view' = a view holds it with useOwnedActor(id)
//   (src/ui/app/useOwnedActor.ts) and the root spawns it while that view is mounted; owner '<id>' = that machine
//   runs it in the state that shows it (the chats footer's dialogs, the open conversation);
// - lifetime 'child': spawned by its parent machine, which provides it in its own effects; listed for the diagrams.
// - systemId: registered under its id, reachable with systemActor(system, id). Its protocol declares the type
//   (module augmentation of SystemActors in src/machines/shared/system.ts); tests/client/registry-types.ts fails to
//   compile when the two disagree either way.
// - load: the line's code is not in the first bundle. A view-owned line's wired machine (its effects' `wired`, or
//   the bare `load` when it needs no services) is fetched when its view first opens it; a line owned by a machine
//   reaches its owner through the owner's actor `loadOwned` (src/machines/shared/owned-code.ts); a session-long line's
//   is fetched at start, after the first paint, and the realtime connection opens once it runs (it hears the socket
//   from its start: src/machines/app/wiring.ts).
import { accountActors } from '../account/actors';
import { adminActors } from '../admin/actors';
import { authActors } from '../auth/actors';
import { blockingActors } from '../blocking/actors';
import { callsActors } from '../calls/actors';
import { chatsActors } from '../chats/actors';
import { composerActors } from '../composer/actors';
import { contactsActors } from '../contacts/actors';
import { conversationActors } from '../conversation/actors';
import { conversationInfoActors } from '../conversationInfo/actors';
import { directoryActors } from '../directory/actors';
import { foldersActors } from '../folders/actors';
import { groupInvitesActors } from '../groupInvites/actors';
import { guestsActors } from '../guests/actors';
import { historyImportActors } from '../historyImport/actors';
import { inviteCodesActors } from '../inviteCodes/actors';
import { messageActionsActors } from '../messageActions/actors';
import { notificationsActors } from '../notifications/actors';
import { profileActors } from '../profile/actors';
import { realtimeActors } from '../realtime/actors';
import { reportsActors } from '../reports/actors';
import { scheduledActors } from '../scheduled/actors';
import { searchActors } from '../search/actors';
import { secretChatsActors } from '../secretChats/actors';
import { sessionActors } from '../session/actors';
import { pollsActors } from '../polls/actors';
import type { ActorLine, Lifetime } from '../shared/actor-line';
import { themeActors } from '../theme/actors';
import { threadsActors } from '../threads/actors';

export type { Lifetime } from '../shared/actor-line';

const lines = {
  ...sessionActors,
  ...realtimeActors,
  ...notificationsActors,
  ...chatsActors,
  ...composerActors,
  ...callsActors,
  ...contactsActors,
  ...searchActors,
  ...profileActors,
  ...messageActionsActors,
  ...themeActors,
  ...conversationActors,
  ...accountActors,
  ...groupInvitesActors,
  ...guestsActors,
  ...blockingActors,
  ...conversationInfoActors,
  ...directoryActors,
  ...authActors,
  ...reportsActors,
  ...adminActors,
  ...inviteCodesActors,
  ...secretChatsActors,
  ...threadsActors,
  ...pollsActors,
  ...scheduledActors,
  ...historyImportActors,
  ...foldersActors,
} as const;

/** One line of the registry. */
export type RegistryEntry = ActorLine;

/** Every line. */
export const registry = lines;

/**
 * The order the root starts the session-long actors in: the session first (the others read who is signed in from
 * it, the realtime actor its token), then the link to the server (the listeners below it hear the socket from their
 * start), then the actors that hear each other: the composer and navigation after the chats actor whose selections
 * they follow.
 */
export const START_ORDER = [
  'session',
  'realtime',
  'connectivity',
  'signOutQueue',
  'offlineStore',
  'notifications',
  'chats',
  'composer',
  'call',
  'navigation',
  'contacts',
  'search',
  'profile',
  'removal',
  'theme',
] as const satisfies readonly SessionId[];

export type Registry = typeof registry;
export type RegistryId = keyof Registry;
/** The session-long actors. */
export type SessionId = { [K in RegistryId]: Registry[K] extends { lifetime: 'session' } ? K : never }[RegistryId];
/** The session-long actors whose code loads after the first paint (`load`): reached by systemId, not in the context. */
export type LateSessionId = { [K in SessionId]: Registry[K] extends { load: unknown } ? K : never }[SessionId];
/** The session-long actors in the first bundle: the root's context holds one ref per id. */
export type EagerSessionId = Exclude<SessionId, LateSessionId>;

/** The lines whose code loads with their effects (load: 'wired'): each needs its feature's entry. */
type WiredId = { [K in RegistryId]: Registry[K] extends { load: 'wired' } ? K : never }[RegistryId];
/**
 * Effects that fit the registry (checked where they are joined, src/services/app/app-effects.ts): every line whose
 * code loads with its effects has an entry, and every entry names a line. Each key maps to true when it fits.
 */
export type EffectsFit<E> = {
  [K in keyof E | WiredId]: K extends RegistryId ? (K extends keyof E ? true : false) : false;
};

const ids = Object.keys(registry) as RegistryId[];

/** The ids of one lifetime (and owner), in the registry's order; the session-long ones in START_ORDER. */
export function idsOf(lifetime: Lifetime, owner?: string): RegistryId[] {
  if (lifetime === 'session' && owner === undefined) return [...START_ORDER];
  return ids.filter((id) => {
    const e: RegistryEntry = registry[id];
    return e.lifetime === lifetime && (owner === undefined || e.owner === owner);
  });
}

/** The lines whose code loads later. */
export const lazyIds = (): RegistryId[] => ids.filter((id) => (registry[id] as RegistryEntry).load !== undefined);

/** The session-long lines whose code loads later, in START_ORDER. */
export const lateSessionIds = (): LateSessionId[] =>
  START_ORDER.filter((id) => (registry[id] as RegistryEntry).load !== undefined) as LateSessionId[];
