import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { offlineStoreMachine } from './offlineStore.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;

describeModel({
  name: 'offlineStore',
  machine: offlineStoreMachine.provide({
    actors: { session: silent, clear: hang, forget: hang, server: silent, catchUp: hang },
  }),
  events: {
    'offline.signedIn': () => [{ type: 'offline.signedIn', userId: 'u1' }],
    'offline.signedOut': () => [{ type: 'offline.signedOut' }],
    'offline.messageDeleted': () => [{ type: 'offline.messageDeleted', conversationId: 'c1', messageId: 'm1' }],
    'offline.listFetched': () => [
      { type: 'offline.listFetched', reachable: true },
      { type: 'offline.listFetched', reachable: false },
    ],
    'xstate.done.actor.clear': () => [{ type: 'xstate.done.actor.clear', output: undefined }],
    'xstate.error.actor.clear': () => [{ type: 'xstate.error.actor.clear', error: new Error('storage refused') }],
  },
});

describe('offlineStore with a resolving clear', () => {
  it('shows saved data read-only until the server answers; sign-out deletes that user’s data', async () => {
    const cleared: string[] = [];
    const actor = createActor(
      offlineStoreMachine.provide({
        actors: {
          session: silent,
          clear: fromPromise(async ({ input }: { input: { userId: string } }) => {
            cleared.push(input.userId);
          }) as never,
          server: silent,
        },
      }),
    ).start();
    actor.send({ type: 'offline.signedIn', userId: 'u1' });
    actor.send({ type: 'offline.listFetched', reachable: false });
    expect(actor.getSnapshot().hasTag('readOnly')).toBe(true);
    actor.send({ type: 'offline.listFetched', reachable: true });
    expect(actor.getSnapshot().hasTag('readOnly')).toBe(false);
    actor.send({ type: 'offline.signedOut' });
    actor.send({ type: 'offline.signedIn', userId: 'u2' });
    await new Promise((r) => setTimeout(r, 0));
    expect(cleared).toEqual(['u1']);
    expect(actor.getSnapshot().matches({ signedIn: 'checking' })).toBe(true);
    expect(actor.getSnapshot().context.userId).toBe('u2');
  });
});

describe('offlineStore and deletions', () => {
  it("takes a message the server deleted out of the signed-in user's store, and hears the server only while signed in", async () => {
    const forgotten: unknown[] = [];
    let listening = 0;
    const actor = createActor(
      offlineStoreMachine.provide({
        actors: {
          session: silent,
          clear: fromPromise(async () => {}) as never,
          forget: fromPromise(async ({ input }) => {
            forgotten.push(input);
          }) as never,
          server: fromCallback(() => {
            listening++;
            return () => {
              listening--;
            };
          }) as never,
        },
      }),
    ).start();
    expect(listening).toBe(0);
    actor.send({ type: 'offline.messageDeleted', conversationId: 'c1', messageId: 'm0' });
    actor.send({ type: 'offline.signedIn', userId: 'u1' });
    expect(listening).toBe(1);
    actor.send({ type: 'offline.messageDeleted', conversationId: 'c1', messageId: 'm1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(forgotten).toEqual([{ userId: 'u1', conversationId: 'c1', messageId: 'm1' }]);
    actor.send({ type: 'offline.signedOut' });
    expect(listening).toBe(0);
  });
});

describe('offlineStore catching up', () => {
  it('asks for the deletions it missed each time the server answers again, for the signed-in user', async () => {
    const asked: string[] = [];
    const actor = createActor(
      offlineStoreMachine.provide({
        actors: {
          session: silent,
          clear: fromPromise(async () => {}) as never,
          server: silent,
          catchUp: fromPromise(async ({ input }: { input: { userId: string } }) => {
            asked.push(input.userId);
            throw new Error('offline again');
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'offline.signedIn', userId: 'u1' });
    actor.send({ type: 'offline.listFetched', reachable: false });
    expect(asked).toEqual([]);
    actor.send({ type: 'offline.listFetched', reachable: true });
    expect(asked).toEqual(['u1']);
    // A failed catch-up changes nothing else, and the same answer again does not ask twice.
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'offline.listFetched', reachable: true });
    expect(actor.getSnapshot().matches({ signedIn: 'live' })).toBe(true);
    expect(asked).toEqual(['u1']);
    actor.send({ type: 'offline.listFetched', reachable: false });
    actor.send({ type: 'offline.listFetched', reachable: true });
    expect(asked).toEqual(['u1', 'u1']);
  });
});
