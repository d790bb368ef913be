// The harness itself: the covering set keeps every transition, state value and value-level edge of the whole
// traversal with far fewer paths, and the coverage check fails when a transition is never taken.
import { describe, expect, it } from 'vitest';
import { assign, createMachine } from 'xstate';
import { allTransitions, describeModel, expectCovered, generatePaths, modelPaths, replay } from './harness';

// A counter with a limit, a reset and a timeout: many paths (one per count and route), few transitions.
const counter = createMachine({
  id: 'counter',
  types: {} as { context: { n: number }; events: { type: 'inc' } | { type: 'reset' } | { type: 'never' } },
  context: { n: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        inc: [
          { guard: ({ context }) => context.n >= 3, target: 'full' },
          { actions: assign({ n: ({ context }) => context.n + 1 }) },
        ],
        reset: { actions: assign({ n: 0 }) },
        // Sent by nothing the model knows (no payload given, the guard never holds): never covered.
        never: { guard: () => false, target: 'full' },
      },
    },
    full: { after: { 1000: { target: 'idle', actions: assign({ n: 0 }) } } },
  },
});

const spec = { name: 'counter', machine: counter };
const walk = (machine = counter) => {
  const fired = new Set<string>();
  for (const path of modelPaths({ name: 'counter', machine }, undefined).paths)
    for (const k of replay({ name: 'counter', machine }, undefined, path)) fired.add(k);
  return fired;
};

describe('model harness', () => {
  it('replays a covering set: fewer paths than the traversal, every state value and edge still on one', () => {
    const all = generatePaths(spec, undefined);
    const { paths, generated } = modelPaths(spec, undefined);
    expect(generated).toBe(all.length);
    expect(paths.length).toBeLessThan(all.length);
    const edges = (ps: typeof all) =>
      new Set(
        ps.flatMap((p) =>
          p.steps
            .slice(1)
            .map(
              (s, i) => `${JSON.stringify(p.steps[i].state.value)} ${s.event.type} ${JSON.stringify(s.state.value)}`,
            ),
        ),
      );
    expect(edges(paths)).toEqual(edges(all));
  });

  it('fails naming each transition no path took', () => {
    const fired = walk();
    expect([...allTransitions(counter)].filter((k) => !fired.has(k))).toEqual(['counter.idle ⟶ never']);
    expect(() => expectCovered('counter', counter, fired)).toThrow(/counter\.idle ⟶ never/);
  });

  it('passes once that transition fired too', () => {
    const fired = walk().add('counter.idle ⟶ never');
    expect(expectCovered('counter', counter, fired).covered).toBe(allTransitions(counter).size);
  });
});

// And through describeModel, as the machines use it (the uncoverable transition left out).
describeModel({
  name: 'counter',
  machine: createMachine({
    id: 'counter',
    types: {} as { context: { n: number } },
    context: { n: 0 },
    initial: 'idle',
    states: {
      idle: {
        on: {
          inc: [
            { guard: ({ context }) => context.n >= 3, target: 'full' },
            { actions: assign({ n: ({ context }) => context.n + 1 }) },
          ],
        },
      },
      full: { after: { 1000: { target: 'idle', actions: assign({ n: 0 }) } } },
    },
  }),
});
