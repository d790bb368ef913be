// Model-based path testing for every machine of the client (usage: tests/model/README.md).
// Paths come from `@xstate/graph`, XState's own path generator (getShortestPaths by default, getSimplePaths on
// request), with vertices keyed by the previous state, the event and the state reached, so every transition gets
// its own path, delays included. Each path is replayed against a real actor of the machine (children stubbed by
// the caller) with fake timers; the transitions that actually fire are collected through the inspection API and reported per
// machine. Later machines reuse this: `describeModel({ name, machine, events })` in their test file.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type AnyEventObject, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, createActor } from 'xstate';
import { getShortestPaths, getSimplePaths } from '@xstate/graph';

type Snap = ReturnType<AnyStateMachine['getInitialSnapshot']>;
type Path = ReturnType<typeof getShortestPaths<AnyStateMachine>>[number];

export interface ModelSpec {
  /** Shown in the coverage report. */
  name: string;
  /** The machine as replayed: invoked/spawned actors stubbed with `.provide` so nothing leaves the test. */
  machine: AnyStateMachine;
  /** One traversal per input (e.g. a signed-out and a restored session); default one undefined input. */
  inputs?: unknown[];
  /**
   * Payloads for event types that need them (by type, as a function of the snapshot), e.g. the outputs of
   * `xstate.done.actor.login` or the errors of `xstate.error.actor.login`. Other types are sent bare.
   */
  events?: Record<string, (snap: Snap) => AnyEventObject[]>;
  /** The part of the context that distinguishes states (default: all of it). */
  contextKey?: (context: Snap['context']) => unknown;
  traversal?: 'shortest' | 'simple';
  /** Extra assertions after each step. */
  check?: (actual: Snap, expected: Snap) => void;
}

/** A stable name for a transition definition: source state, event and its index among the candidates. */
export function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source as AnyStateNode;
  if (!t.eventType) return `${source.id} ⟶ (always #${source.always?.indexOf(t) ?? 0})`;
  const index = source.transitions.get(t.eventType)?.indexOf(t) ?? 0;
  return `${source.id} ⟶ ${t.eventType}${index ? ` #${index}` : ''}`;
}

/** Every transition the machine defines (events, delays, invoke results, eventless). */
export function allTransitions(machine: AnyStateMachine): Set<string> {
  const keys = new Set<string>();
  const walk = (node: AnyStateNode) => {
    for (const defs of node.transitions.values()) for (const t of defs) keys.add(transitionKey(t));
    for (const t of node.always ?? []) keys.add(transitionKey(t));
    for (const child of Object.values(node.states)) walk(child as AnyStateNode);
  };
  walk(machine.root);
  return keys;
}

/** The event types the active states handle, with payloads from the spec. */
function eventsFor(spec: ModelSpec) {
  return (snap: Snap): AnyEventObject[] => {
    const types = new Set<string>();
    for (const node of snap._nodes as AnyStateNode[]) for (const type of node.transitions.keys()) types.add(type);
    return [...types].flatMap((type) => spec.events?.[type]?.(snap) ?? [{ type }]);
  };
}

export function generatePaths(spec: ModelSpec, input: unknown): Path[] {
  const ctx = spec.contextKey ?? ((c) => c);
  const options = {
    input,
    events: eventsFor(spec),
    serializeState: (state: Snap, event: AnyEventObject | undefined, prev?: Snap) =>
      // The whole event, not just its type: two payloads of one type can take different guarded transitions that
      // end in the same state (a relayed server event vs one that also asks for a refresh).
      JSON.stringify({ from: prev?.value ?? null, event: event ?? null, value: state.value, ctx: ctx(state.context) }),
  };
  return spec.traversal === 'simple'
    ? getSimplePaths(spec.machine, options as never)
    : getShortestPaths(spec.machine, options as never);
}

/** The milliseconds of a delayed event `xstate.after.<delay>.<stateId>` (named delays resolved). */
export function delayOf(machine: AnyStateMachine, eventType: string, snap: Snap): number {
  const walk = (node: AnyStateNode): AnyTransitionDefinition | undefined =>
    node.transitions.get(eventType)?.[0] ??
    Object.values(node.states).map((n) => walk(n as AnyStateNode)).find(Boolean);
  const t = walk(machine.root) as (AnyTransitionDefinition & { delay?: number | string }) | undefined;
  if (t?.delay === undefined) throw new Error(`no delayed transition for ${eventType}`);
  if (typeof t.delay === 'number') return t.delay;
  const impl = (machine.implementations.delays as Record<string, unknown>)[t.delay];
  if (typeof impl === 'number') return impl;
  if (typeof impl === 'function') return impl({ context: snap.context, event: { type: eventType } });
  throw new Error(`delay ${t.delay} has no implementation`);
}

export const describePath = (path: Path) =>
  path.steps.map((s) => s.event.type.replace(/^xstate\.(done|error)\.actor\./, '$1:')).join(' → ');

/** Replays one path on a real actor; returns the transitions that fired. */
export function replay(spec: ModelSpec, input: unknown, path: Path): Set<string> {
  vi.useFakeTimers(); // before the actor enters any delayed state
  const fired = new Set<string>();
  const actor = createActor(spec.machine, {
    input,
    inspect: (ev) => {
      // Only the machine under test (its children are stubs); init's eventless steps are reported too.
      if (ev.type === '@xstate.microstep' && ev.actorRef.sessionId === ev.rootId) {
        for (const t of ev._transitions) fired.add(transitionKey(t));
      }
    },
  });
  try {
    actor.start();
    for (const step of path.steps) {
      const type = step.event.type;
      if (type === 'xstate.init') {
        // the initial eventless transitions happen during start
      } else if (type.startsWith('xstate.after.')) {
        const ms = delayOf(spec.machine, type, actor.getSnapshot());
        const before = actor.getSnapshot().value;
        vi.advanceTimersByTime(ms - 1);
        expect(actor.getSnapshot().value, `1 ms before ${type}`).toEqual(before);
        vi.advanceTimersByTime(1);
      } else {
        actor.send(step.event);
      }
      const actual = actor.getSnapshot();
      expect(actual.value, `state after ${type}`).toEqual(step.state.value);
      expect(actual.context, `context after ${type}`).toEqual(step.state.context);
      spec.check?.(actual, step.state);
    }
  } finally {
    actor.stop();
    vi.useRealTimers();
  }
  return fired;
}

export interface CoverageRow {
  machine: string;
  covered: number;
  total: number;
  missing: string[];
}
export const coverageReport: CoverageRow[] = [];

/** Defines one test per path and a final test that every defined transition fired at least once. */
export function describeModel(spec: ModelSpec): void {
  describe(`${spec.name} (model paths)`, () => {
    const inputs = spec.inputs ?? [undefined];
    const cases = inputs.flatMap((input, i) =>
      generatePaths(spec, input).map((p) => [`${inputs.length > 1 ? `input ${i + 1}: ` : ''}${describePath(p)}`, input, p] as const),
    );
    const all = allTransitions(spec.machine);
    const fired = new Set<string>();

    it('yields more than one path (a machine missing its input yields a single error path)', () => {
      expect(cases.length).toBeGreaterThan(inputs.length);
    });

    it.each(cases)('%s', (_name, input, path) => {
      for (const key of replay(spec, input, path)) fired.add(key);
    });

    it('covers every transition', () => {
      const missing = [...all].filter((k) => !fired.has(k));
      const row = { machine: spec.name, covered: all.size - missing.length, total: all.size, missing };
      coverageReport.push(row);
      expect(missing).toEqual([]);
    });

    afterAll(() => {
      for (const r of coverageReport.splice(0)) {
        console.info(`[model coverage] ${r.machine}: ${r.covered}/${r.total} transitions (${Math.round((100 * r.covered) / r.total)}%)${r.missing.length ? ` missing: ${r.missing.join(', ')}` : ''}`);
      }
    });
  });
}
