// The root actor: it spawns the long-lived children, each under a systemId so any actor can reach another
// (session ↔ realtime). Realtime is spawned first so the session's first token announcement finds it.
import { type ActorRefFrom, setup } from 'xstate';
import type { Session } from '../../services/storage';
import { callMachine } from '../call/call.machine';
import { callsPageMachine } from '../callsPage/callsPage.machine';
import { chatsMachine } from '../chats/chats.machine';
import { avatarMachine } from '../avatar/avatar.machine';
import { connectivityMachine } from '../connectivity/connectivity.machine';
import { contactCodeMachine } from '../contactCode/contactCode.machine';
import { contactsMachine } from '../contacts/contacts.machine';
import { groupDialogMachine } from '../groupDialog/groupDialog.machine';
import { profileMachine } from '../profile/profile.machine';
import { realtimeMachine } from '../realtime/realtime.machine';
import { sessionMachine } from '../session/session.machine';

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
  chats: ActorRefFrom<typeof chatsMachine>;
}

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    input: {} as { stored?: Session | null } | undefined,
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
    chats: chatsMachine,
  },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) => ({
    realtime: spawn('realtime', { id: 'realtime', systemId: 'realtime' }),
    session: spawn('session', { id: 'session', systemId: 'session', input: { stored: input?.stored ?? null } }),
    connectivity: spawn('connectivity', { id: 'connectivity', systemId: 'connectivity' }),
    call: spawn('call', { id: 'call', systemId: 'call' }),
    callsPage: spawn('callsPage', { id: 'callsPage', systemId: 'callsPage' }),
    contacts: spawn('contacts', { id: 'contacts', systemId: 'contacts' }),
    contactCode: spawn('contactCode', { id: 'contactCode', systemId: 'contactCode' }),
    profile: spawn('profile', { id: 'profile', systemId: 'profile' }),
    avatar: spawn('avatar', { id: 'avatar', systemId: 'avatar' }),
    groupDialog: spawn('groupDialog', { id: 'groupDialog', systemId: 'groupDialog' }),
    // After the session, whose signed-in user it follows.
    chats: spawn('chats', { id: 'chats', systemId: 'chats' }),
  }),
  initial: 'running',
  states: { running: {} },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
