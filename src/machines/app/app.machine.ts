// The root actor: it spawns the long-lived children, each under a systemId so any actor can reach another
// (session ↔ realtime). Realtime is spawned first so the session's first token announcement finds it.
import { type ActorRefFrom, setup } from 'xstate';
import type { Session } from '../../services/storage';
import { callMachine } from '../call/call.machine';
import { callsPageMachine } from '../callsPage/callsPage.machine';
import { connectivityMachine } from '../connectivity/connectivity.machine';
import { realtimeMachine } from '../realtime/realtime.machine';
import { sessionMachine } from '../session/session.machine';

export interface AppContext {
  realtime: ActorRefFrom<typeof realtimeMachine>;
  session: ActorRefFrom<typeof sessionMachine>;
  connectivity: ActorRefFrom<typeof connectivityMachine>;
  call: ActorRefFrom<typeof callMachine>;
  callsPage: ActorRefFrom<typeof callsPageMachine>;
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
  },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) => ({
    realtime: spawn('realtime', { id: 'realtime', systemId: 'realtime' }),
    session: spawn('session', { id: 'session', systemId: 'session', input: { stored: input?.stored ?? null } }),
    connectivity: spawn('connectivity', { id: 'connectivity', systemId: 'connectivity' }),
    call: spawn('call', { id: 'call', systemId: 'call' }),
    callsPage: spawn('callsPage', { id: 'callsPage', systemId: 'callsPage' }),
  }),
  initial: 'running',
  states: { running: {} },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
