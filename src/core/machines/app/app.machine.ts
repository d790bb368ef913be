// The root actor: it spawns the long-lived children, each under a systemId so any actor can reach another through
// the typed map of src/core/machines/system.ts. The session comes first: the others read who is signed in (and the
// realtime actor the token) from it when they start.
import { type ActorRefFrom, setup } from 'xstate';
import { avatarMachine } from '../../../features/profile/index';
import { callMachine } from '../../../features/calls/index';
import { callsPageMachine } from '../../../features/calls/index';
import { chatsMachine } from '../../../features/chats/index';
import { chatsFooterMachine } from '../../../features/chats/index';
import { connectivityMachine } from '../connectivity/connectivity.machine';
import { contactCodeMachine } from '../../../features/contacts/index';
import { contactsMachine } from '../../../features/contacts/index';
import { groupDialogMachine } from '../../../features/contacts/index';
import { notificationsMachine } from '../../../features/notifications/index';
import { offlineStoreMachine } from '../offlineStore/offlineStore.machine';
import { profileMachine } from '../../../features/profile/index';
import { realtimeMachine } from '../realtime/realtime.machine';
import { searchMachine } from '../../../features/search/index';
import { sessionMachine } from '../session/session.machine';
import type { SystemActors } from '../system';
import type { AppInput } from './app.protocol';

export * from './app.protocol';

export interface AppContext {
  realtime: ActorRefFrom<typeof realtimeMachine>;
  session: ActorRefFrom<typeof sessionMachine>;
  connectivity: ActorRefFrom<typeof connectivityMachine>;
  call: ActorRefFrom<typeof callMachine>;
  callsPage: ActorRefFrom<typeof callsPageMachine>;
  contacts: ActorRefFrom<typeof contactsMachine>;
  contactCode: ActorRefFrom<typeof contactCodeMachine>;
  profile: ActorRefFrom<typeof profileMachine>;
  avatar: ActorRefFrom<typeof avatarMachine>;
  groupDialog: ActorRefFrom<typeof groupDialogMachine>;
  chatsFooter: ActorRefFrom<typeof chatsFooterMachine>;
  chats: ActorRefFrom<typeof chatsMachine>;
  search: ActorRefFrom<typeof searchMachine>;
  conversationSearch: ActorRefFrom<typeof searchMachine>;
  notifications: ActorRefFrom<typeof notificationsMachine>;
  offlineStore: ActorRefFrom<typeof offlineStoreMachine>;
}

/** Fails to compile when a child no longer matches the protocol its systemId promises (src/core/machines/system.ts). */
type MatchesSystem<T extends { [K in keyof T]: K extends keyof SystemActors ? SystemActors[K] : never }> = T;
export type AppChildrenMatchSystem = MatchesSystem<AppContext>;

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    input: {} as AppInput | undefined,
  },
  actors: {
    realtime: realtimeMachine,
    session: sessionMachine,
    connectivity: connectivityMachine,
    call: callMachine,
    callsPage: callsPageMachine,
    contacts: contactsMachine,
    contactCode: contactCodeMachine,
    profile: profileMachine,
    avatar: avatarMachine,
    groupDialog: groupDialogMachine,
    chatsFooter: chatsFooterMachine,
    chats: chatsMachine,
    search: searchMachine,
    notifications: notificationsMachine,
    offlineStore: offlineStoreMachine,
  },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) => ({
    session: spawn('session', { id: 'session', systemId: 'session', input: { stored: input?.stored ?? null } }),
    realtime: spawn('realtime', { id: 'realtime', systemId: 'realtime' }),
    connectivity: spawn('connectivity', { id: 'connectivity', systemId: 'connectivity' }),
    call: spawn('call', { id: 'call', systemId: 'call' }),
    callsPage: spawn('callsPage', { id: 'callsPage', systemId: 'callsPage' }),
    contacts: spawn('contacts', { id: 'contacts', systemId: 'contacts' }),
    contactCode: spawn('contactCode', { id: 'contactCode', systemId: 'contactCode' }),
    profile: spawn('profile', { id: 'profile', systemId: 'profile' }),
    avatar: spawn('avatar', { id: 'avatar', systemId: 'avatar' }),
    groupDialog: spawn('groupDialog', { id: 'groupDialog', systemId: 'groupDialog' }),
    chatsFooter: spawn('chatsFooter', { id: 'chatsFooter', systemId: 'chatsFooter' }),
    chats: spawn('chats', { id: 'chats', systemId: 'chats' }),
    // Two searches: the chats list's over every conversation, and the open conversation's (search.scope).
    search: spawn('search', { id: 'search', systemId: 'search' }),
    conversationSearch: spawn('search', { id: 'conversationSearch', systemId: 'conversationSearch' }),
    notifications: spawn('notifications', { id: 'notifications', systemId: 'notifications' }),
    offlineStore: spawn('offlineStore', { id: 'offlineStore', systemId: 'offlineStore' }),
  }),
  initial: 'running',
  states: { running: {} },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
