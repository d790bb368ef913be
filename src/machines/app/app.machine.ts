// The root actor: it spawns the long-lived children, each under a systemId so any actor can reach another
// (session ↔ realtime). Realtime is spawned first so the session's first token announcement finds it.
import { type ActorRefFrom, setup } from 'xstate';
import type { Session } from '../../services/storage';
import { connectivityMachine } from '../connectivity/connectivity.machine';
import { realtimeMachine } from '../realtime/realtime.machine';
import { sessionMachine } from '../session/session.machine';

export interface AppContext {
  realtime: ActorRefFrom<typeof realtimeMachine>;
  session: ActorRefFrom<typeof sessionMachine>;
  connectivity: ActorRefFrom<typeof connectivityMachine>;
}

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    input: {} as { stored?: Session | null } | undefined,
  },
  actors: { realtime: realtimeMachine, session: sessionMachine, connectivity: connectivityMachine },
}).createMachine({
  id: 'app',
  context: ({ spawn, input }) => ({
    realtime: spawn('realtime', { id: 'realtime', systemId: 'realtime' }),
    session: spawn('session', { id: 'session', systemId: 'session', input: { stored: input?.stored ?? null } }),
    connectivity: spawn('connectivity', { id: 'connectivity', systemId: 'connectivity' }),
  }),
  initial: 'running',
  states: { running: {} },
});

export type AppActorRef = ActorRefFrom<typeof appMachine>;
