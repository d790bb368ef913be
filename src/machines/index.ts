// Every machine of the client, for the diagram script and its test. Add new machines here.
import { appMachine } from './app/app.machine';
import { callMachine } from './call/call.machine';
import { callsPageMachine } from './callsPage/callsPage.machine';
import { chatsLayoutMachine } from './chatsLayout/chatsLayout.machine';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { lightboxMachine } from './lightbox/lightbox.machine';
import { realtimeMachine } from './realtime/realtime.machine';
import { sessionMachine } from './session/session.machine';

export const machines = {
  app: appMachine,
  session: sessionMachine,
  realtime: realtimeMachine,
  connectivity: connectivityMachine,
  call: callMachine,
  callsPage: callsPageMachine,
  lightbox: lightboxMachine,
  chatsLayout: chatsLayoutMachine,
} as const;
