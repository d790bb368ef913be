// Every machine of the client for `npm run diagrams` and its test: the root and each machine of the registry
// (src/core/app/registry.ts), by the first registry id that names it.
import type { AnyStateMachine } from 'xstate';
import { appMachine } from './app.machine';
import { registeredMachines } from './registry';

export async function diagramMachines(): Promise<Record<string, AnyStateMachine>> {
  return { app: appMachine, ...(await registeredMachines()) };
}
