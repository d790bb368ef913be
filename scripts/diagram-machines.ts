// Every machine of the client for `npm run diagrams` and its test: the root and each machine of the registry
// (src/machines/app/registry.ts), by the first registry id that names it; a line whose code loads with its effects
// is drawn from what those effects (src/services/app/app-effects.ts, passed in) fetch.
import type { AnyStateMachine } from 'xstate';
import { appMachine } from '../src/machines/app/app.machine';
import { type RegistryEntry, type RegistryId, registry } from '../src/machines/app/registry';
import type { Services } from '../src/services/app/services';
import type { LineEffects } from '../src/machines/app/wiring';

/**
 * What a line whose code loads later is wired with here: the wiring only closes over the services (they are used
 * when an actor runs), and a diagram needs only the states, which providing effects leaves as they are.
 */
const noServices = {} as Services;

/**
 * Every machine once (two lines may share one, e.g. the two searches: the same config, wired or not), by the first
 * id that names it; the lines that load later are fetched for it.
 */
export async function registeredMachines(effects: LineEffects): Promise<Record<string, AnyStateMachine>> {
  const seen = new Set<unknown>();
  const out: Record<string, AnyStateMachine> = {};
  for (const id of Object.keys(registry) as RegistryId[]) {
    const e: RegistryEntry = registry[id];
    const m =
      e.machine ?? (await (effects[id]?.wired?.(noServices) ?? (typeof e.load === 'function' ? e.load() : undefined)));
    if (!m || seen.has(m.config)) continue;
    seen.add(m.config);
    out[id] = m;
  }
  return out;
}

export async function diagramMachines(effects: LineEffects): Promise<Record<string, AnyStateMachine>> {
  return { app: appMachine, ...(await registeredMachines(effects)) };
}
