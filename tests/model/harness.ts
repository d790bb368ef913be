// Model-based path testing for every machine of the client (usage: tests/model/README.md).
// Paths come from `@xstate/graph`, XState's own path generator (getShortestPaths by default, getSimplePaths on
// request), with vertices keyed by the previous state, the event and the state reached, so every transition gets
// its own path, delays included. Each path is replayed against a real actor of the machine (children stubbed by
// the caller) with fake timers; the transitions that actually fire are collected through the inspection API and reported per
// machine. Later machines reuse this: `describeModel({ name, machine, events })` in their test file.
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type AnyEventObject,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  createEmptyActor,
} from 'xstate';
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

/** Pure transitions of the machine, as the graph takes them, with the transitions each one fired. */
function recording(machine: AnyStateMachine) {
  const self = createEmptyActor();
  let sink: string[] = [];
  // Only the machine's own microsteps: spawned children are created but never started in a pure transition.
  self.system.inspect((ev) => {
    if (ev.type !== '@xstate.microstep' || ev.actorRef !== self) return;
    for (const t of (ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions)
      sink.push(transitionKey(t));
  });
  const scope = {
    self,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system: self.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  };
  const fired = new WeakMap<object, Map<object, string[]>>();
  const initial = new Map<unknown, string[]>();
  const record = <T>(run: () => T): [T, string[]] => {
    sink = [];
    const result = run();
    return [result, sink];
  };
  const logic: AnyStateMachine = Object.create(machine);
  logic.getInitialSnapshot = (_scope: unknown, input: unknown) => {
    const [snap, keys] = record(() => machine.getInitialSnapshot(scope as never, input));
    initial.set(input, keys);
    return snap;
  };
  logic.transition = (snap: Snap, event: AnyEventObject) => {
    const [next, keys] = record(() => machine.transition(snap, event, scope as never));
    const byEvent = fired.get(snap) ?? new Map<object, string[]>();
    fired.set(snap, byEvent);
    byEvent.set(event, keys);
    return next;
  };
  return {
    logic,
    /** The transitions taken at start, and by `event` in `snap` (looked up, else taken again). */
    initial: (input: unknown) =>
      initial.get(input) ?? record(() => machine.getInitialSnapshot(scope as never, input))[1],
    step: (snap: Snap, event: AnyEventObject) =>
      fired.get(snap)?.get(event) ?? record(() => machine.transition(snap, event, scope as never))[1],
  };
}

function explore(spec: ModelSpec, input: unknown) {
  const ctx = spec.contextKey ?? ((c) => c);
  const machine = recording(spec.machine);
  const options = {
    input,
    events: eventsFor(spec),
    serializeState: (state: Snap, event: AnyEventObject | undefined, prev?: Snap) =>
      // The whole event, not just its type: two payloads of one type can take different guarded transitions that
      // end in the same state (a relayed server event vs one that also asks for a refresh).
      JSON.stringify({ from: prev?.value ?? null, event: event ?? null, value: state.value, ctx: ctx(state.context) }),
  };
  const paths =
    spec.traversal === 'simple'
      ? getSimplePaths(machine.logic, options as never)
      : getShortestPaths(machine.logic, options as never);
  return { paths, machine };
}

/** Every path of the traversal (each transition, as keyed above, ends at least one of them). */
export function generatePaths(spec: ModelSpec, input: unknown): Path[] {
  return explore(spec, input).paths;
}

/**
 * What a path exercises: the transitions each step takes (recorded while the graph was built, through the
 * machine's own pure `transition` watched by the inspection API as a live actor is), every state value it passes
 * through and every (state value, event type, state value) edge.
 */
function pathItems(path: Path, input: unknown, machine: ReturnType<typeof recording>): Set<string> {
  const value = (s: Snap) => JSON.stringify(s.value);
  const items = new Set<string>(machine.initial(input));
  for (const [i, step] of path.steps.entries()) {
    items.add(`value ${value(step.state)}`);
    if (i === 0) continue;
    const prev = path.steps[i - 1].state;
    for (const k of machine.step(prev, step.event)) items.add(k);
    items.add(`edge ${value(prev)} ${step.event.type} ${value(step.state)}`);
  }
  return items;
}

/**
 * A covering subset of `paths`: greedily the path that adds the most items not yet covered (transitions, state
 * values, value-level edges: see `pathItems`), the longer one on a tie, until the chosen paths cover all that the
 * whole set covers. Deterministic: the traversal's order breaks the remaining ties.
 */
export function selectCovering(items: Set<string>[]): number[] {
  const covered = new Set<string>();
  const chosen: number[] = [];
  const left = new Set(items.keys());
  const length = (i: number) => items[i].size;
  for (;;) {
    let best = -1;
    let gain = 0;
    for (const i of left) {
      let g = 0;
      for (const k of items[i]) if (!covered.has(k)) g++;
      if (g === 0) left.delete(i);
      else if (g > gain || (g === gain && length(i) > length(best))) [best, gain] = [i, g];
    }
    if (best < 0) return chosen;
    chosen.push(best);
    left.delete(best);
    for (const k of items[best]) covered.add(k);
  }
}

/** The paths to replay for one input: a covering set of the traversal's paths, and how many there were. */
export function modelPaths(spec: ModelSpec, input: unknown): { paths: Path[]; generated: number } {
  const { paths, machine } = explore(spec, input);
  const chosen = selectCovering(paths.map((p) => pathItems(p, input, machine)));
  return { paths: chosen.map((i) => paths[i]), generated: paths.length };
}

/** The milliseconds of a delayed event `xstate.after.<delay>.<stateId>` (named delays resolved). */
export function delayOf(machine: AnyStateMachine, eventType: string, snap: Snap): number {
  const walk = (node: AnyStateNode): AnyTransitionDefinition | undefined =>
    node.transitions.get(eventType)?.[0] ??
    Object.values(node.states)
      .map((n) => walk(n as AnyStateNode))
      .find(Boolean);
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
  paths: number;
  generated: number;
}
export const coverageReport: CoverageRow[] = [];

/** The transitions of the machine that are not among those fired. */
export function uncovered(machine: AnyStateMachine, fired: Set<string>): string[] {
  return [...allTransitions(machine)].filter((k) => !fired.has(k));
}

/** Fails naming every transition of the machine that did not fire; returns the report row otherwise. */
export function expectCovered(name: string, machine: AnyStateMachine, fired: Set<string>): CoverageRow {
  const missing = uncovered(machine, fired);
  const total = allTransitions(machine).size;
  const row = { machine: name, covered: total - missing.length, total, missing, paths: 0, generated: 0 };
  expect(missing, `${name}: transitions no path took`).toEqual([]);
  return row;
}

/**
 * Defines one test per path of a covering set (see `coveringPaths`) and a final test that every defined transition
 * fired at least once on the real actor.
 */
export function describeModel(spec: ModelSpec): void {
  describe(`${spec.name} (model paths)`, () => {
    const inputs = spec.inputs ?? [undefined];
    let generated = 0;
    const cases = inputs.flatMap((input, i) => {
      const model = modelPaths(spec, input);
      generated += model.generated;
      return model.paths.map(
        (p) => [`${inputs.length > 1 ? `input ${i + 1}: ` : ''}${describePath(p)}`, input, p] as const,
      );
    });
    const fired = new Set<string>();

    it('yields more than one path (a machine missing its input yields a single error path)', () => {
      expect(generated).toBeGreaterThan(inputs.length);
    });

    it.each(cases)('%s', (_name, input, path) => {
      for (const key of replay(spec, input, path)) fired.add(key);
    });

    it('covers every transition', () => {
      const missing = uncovered(spec.machine, fired);
      const total = allTransitions(spec.machine).size;
      coverageReport.push({
        machine: spec.name,
        covered: total - missing.length,
        total,
        missing,
        paths: cases.length,
        generated,
      });
      expectCovered(spec.name, spec.machine, fired);
    });

    afterAll(() => {
      for (const r of coverageReport.splice(0)) {
        console.info(
          `[model coverage] ${r.machine}: ${r.covered}/${r.total} transitions (${Math.round((100 * r.covered) / r.total)}%) on ${r.paths} of ${r.generated} paths${r.missing.length ? ` missing: ${r.missing.join(', ')}` : ''}`,
        );
      }
    });
  });
}
