// Every machine of the client, for the diagram script and its test. Add new machines here.
import { appMachine } from './app/app.machine';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { realtimeMachine } from './realtime/realtime.machine';
import { sessionMachine } from './session/session.machine';

export const machines = {
  app: appMachine,
  session: sessionMachine,
  realtime: realtimeMachine,
  connectivity: connectivityMachine,
} as const;
