// Every view-owned line whose code loads later hears what its view tells it from the view's first paint: a click
// made while the line's code is still on its way reaches the actor, in order, once the code is here. The lines come
// from the registry; each one's loader is held back by a promise the test resolves, then runs as the registry and
// its feature's effects have it.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AnyActorRef, type EventObject, type InspectionEvent, waitFor } from 'xstate';
import { deferred, never, quietSocket, storedSession } from '../../../tests/fixtures/session';
import { idsOf, type RegistryEntry, registry } from '../../machines/app/registry';
import { appEffects } from '../../services/app/app-effects';
import type { Effects } from '../../services/app/effects';
import { createRuntime } from '../../machines/app/runtime';
import type { Services } from '../../services/app/services';
import type { ViewOwnedId } from '../../machines/shared/system';
import type { ApiClient } from '../../services/app/api';
import { RuntimeProvider } from './RuntimeContext';
import { useOwnedActor } from './useOwnedActor';

const lazyOwned = idsOf('owned', 'view').filter(
  (id) => (registry[id] as RegistryEntry).load !== undefined,
) as ViewOwnedId[];

const peer = { ...storedSession.user, id: 'u2', username: 'boris', displayName: 'Борис' };
/** One input that every line's input type is satisfied by (each machine reads its own fields). */
const input = {
  conversationId: 'c1',
  userId: storedSession.user.id,
  user: peer,
  write: false,
  messageId: 'm1',
  messageIds: ['m1'],
  rootId: 'm1',
  code: 'abcdef',
  fragment: '',
  token: 't1',
  room: 'conv-c1',
  secret: false,
  list: false,
  mode: 'setup',
  target: { userId: peer.id },
  candidates: [],
  items: [{ url: '/uploads/a.jpg', name: 'a.jpg' }],
  index: 0,
};

/** Any event: what each machine does with its own is its tests' business; here it has to arrive. */
const told = (n: number): EventObject & { n: number } => ({ type: 'view.told', n });

/** useOwnedActor for any line, typed by what every actor accepts (the union of all their refs is too large). */
const useAnyOwned = useOwnedActor as unknown as (
  id: ViewOwnedId,
  input?: unknown,
) => { send(event: EventObject): void };

/** A view owning the line, as the app's views do; a click tells its actor twice. */
function View({ id }: { id: ViewOwnedId }) {
  const actor = useAnyOwned(id, input);
  return (
    <button
      type="button"
      onClick={() => {
        actor.send(told(1));
        actor.send(told(2));
      }}
    >
      Нажать
    </button>
  );
}

/** The effects the runtimes get: every feature's, with a line's loader replaced while a case holds it back. */
const effects: Record<string, Effects> = { ...appEffects };

/** Holds the line's code back: its loader, as the registry and its effects have it, runs once `release` is called. */
function holdBack(id: ViewOwnedId) {
  const own = effects[id];
  const { load } = registry[id] as RegistryEntry;
  const gate = deferred<void>();
  effects[id] = {
    wired: async (s: Services) => {
      await gate.promise;
      if (own?.wired) return own.wired(s);
      if (typeof load === 'function') return load();
      throw new Error(`registry line ${id} loads nothing`);
    },
  };
  return {
    release: () => gate.resolve(),
    restore: () => {
      if (own) effects[id] = own;
      else delete effects[id];
    },
  };
}

const api: ApiClient = { call: (async () => never()) as ApiClient['call'] };
/** What a case leaves to undo, run after it whether it passed or not: a case that timed out must not leave its
 * runtime running or a loader held back for the files that share this worker's module graph. */
let undo: (() => void)[] = [];

afterEach(() => {
  for (const step of undo.reverse()) step();
  undo = [];
  localStorage.clear();
});

// Each line's modules imported once before the cases: under load the first import of a feature's code took longer
// than a case's whole budget, so a case measures what it asserts, not the transform of its chunk.
beforeAll(async () => {
  await Promise.allSettled(
    lazyOwned.map((id) => {
      const { load } = registry[id] as RegistryEntry;
      return effects[id]?.wired?.({} as Services) ?? (typeof load === 'function' ? load() : undefined);
    }),
  );
}, 120_000);

describe('a view-owned actor whose code loads later', () => {
  it('is every such line of the registry', () => {
    expect(lazyOwned).toEqual(expect.arrayContaining(['sendPreview', 'mentionPicker', 'memberCard', 'threadPanel']));
  });

  it.each(lazyOwned)('%s hears what its view told it before its code came, in order', async (id) => {
    const held = holdBack(id);
    undo.push(held.restore);
    const inspected: InspectionEvent[] = [];
    const runtime = createRuntime({
      effects,
      stored: storedSession,
      services: { api, connectSocket: () => quietSocket(), ping: () => never() },
      inspect: { next: (e) => inspected.push(e) },
    });
    undo.push(() => runtime.app.stop());
    const children = () => runtime.app.getSnapshot().children as Record<string, AnyActorRef | undefined>;
    const view = render(
      <RuntimeProvider app={runtime.app}>
        <View id={id} />
      </RuntimeProvider>,
    );
    undo.push(() => view.unmount());

    // First paint, the code still on its way: the click goes to an actor that does not run yet.
    fireEvent.click(screen.getByRole('button', { name: 'Нажать' }));
    expect(children()[id]).toBeUndefined();

    await act(async () => {
      held.release();
      await waitFor(runtime.app, () => children()[id] !== undefined);
    });
    const actor = children()[id];
    const heard = inspected.flatMap((e) =>
      e.type === '@xstate.event' && e.actorRef === actor && e.event.type === 'view.told' ? [e.event.n] : [],
    );
    expect(heard).toEqual([1, 2]);
    expect(runtime.app.getSnapshot().status).toBe('active');
  });
});
