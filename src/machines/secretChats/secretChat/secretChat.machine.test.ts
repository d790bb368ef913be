import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { SecretCryptoError } from '../../../services/secretChats/crypto/secret-crypto';
import {
  type CatchUpResult,
  type CommitResult,
  type Incoming,
  type LeafUpdateResult,
  type Outgoing,
  type RegisterResult,
  SECRET_LEAF_CHECK_MS,
  SECRET_RETRY_MS,
  type SecretChatEmitted,
  secretChatMachine,
} from './secretChat.machine';

const input = { userId: 'u1', conversationId: 'c1' };
type Where = { userId: string; conversationId: string; deviceId: string };
/** A stub whose promise never settles: the path delivers its result. */
const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const out: Outgoing = { clientMessageId: 'k1', envelope: { v: 1, kind: 'text', text: 'привет' } };
const inc: Incoming = { messageId: 'm1', ciphertext: 'AAAA' };
const conflict = new RequestFailure(409, 'Эпоха сменилась');
/** A device that registers at once, with key packages enough. */
const registered = fromPromise<RegisterResult, { userId: string }>(async () => ({
  deviceId: 'd1',
  keyPackagesLeft: 10,
}));

describeModel({
  name: 'secretChat',
  machine: secretChatMachine.provide({
    actors: {
      register: hang<RegisterResult, { userId: string }>(),
      catchUp: hang<CatchUpResult, Where & { after: number }>(),
      commit: hang<CommitResult, Where>(),
      updateLeaf: hang<LeafUpdateResult, Where>(),
      send: hang<{ messageId: string }, Where & { item: Outgoing }>(),
      decrypt: hang<{ messageId: string }, Where & { item: Incoming }>(),
      replenish: hang<{ keyPackagesLeft: number }, { userId: string; deviceId: string; left: number }>(),
    },
  }),
  inputs: [input],
  events: {
    // At most one message waiting each way, so the walk ends.
    'secretChat.send': (s) => (s.context.outgoing.length < 1 ? [{ type: 'secretChat.send', item: out }] : []),
    'secretChat.received': (s) => (s.context.incoming.length < 1 ? [{ type: 'secretChat.received', item: inc }] : []),
    'secretChat.log': () => [{ type: 'secretChat.log', seq: 2, epoch: 2 }],
    'xstate.done.actor.register': () => [
      { type: 'xstate.done.actor.register', output: { deviceId: 'd1', keyPackagesLeft: 10 } },
      { type: 'xstate.done.actor.register', output: { deviceId: 'd1', keyPackagesLeft: 2 } },
    ],
    'xstate.error.actor.register': () => [
      { type: 'xstate.error.actor.register', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.join': () => [
      { type: 'xstate.done.actor.join', output: { seq: 1, epoch: 1, removed: false, skipped: 0 } },
      { type: 'xstate.done.actor.join', output: { seq: 0, epoch: null, removed: false, skipped: 0 } },
      // A commit it could not apply on the way: it asked to be added again.
      { type: 'xstate.done.actor.join', output: { seq: 2, epoch: null, removed: false, skipped: 1 } },
    ],
    'xstate.error.actor.join': () => [{ type: 'xstate.error.actor.join', error: new RequestFailure(500, null) }],
    'xstate.done.actor.catchUp': () => [
      { type: 'xstate.done.actor.catchUp', output: { seq: 2, epoch: 2, removed: false, skipped: 0 } },
      { type: 'xstate.done.actor.catchUp', output: { seq: 3, epoch: 2, removed: true, skipped: 0 } },
      { type: 'xstate.done.actor.catchUp', output: { seq: 3, epoch: null, removed: false, skipped: 1 } },
    ],
    'xstate.error.actor.catchUp': () => [{ type: 'xstate.error.actor.catchUp', error: new RequestFailure(null, null) }],
    'xstate.done.actor.commit': () => [
      { type: 'xstate.done.actor.commit', output: { seq: 2, epoch: 2, keyPackagesLeft: 10 } },
    ],
    'xstate.error.actor.commit': () => [
      { type: 'xstate.error.actor.commit', error: conflict },
      { type: 'xstate.error.actor.commit', error: new RequestFailure(403, 'Нельзя') },
    ],
    'xstate.done.actor.updateLeaf': () => [
      { type: 'xstate.done.actor.updateLeaf', output: { seq: 3, epoch: 3 } },
      { type: 'xstate.done.actor.updateLeaf', output: null },
    ],
    'xstate.error.actor.updateLeaf': () => [
      { type: 'xstate.error.actor.updateLeaf', error: conflict },
      { type: 'xstate.error.actor.updateLeaf', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.replenish': () => [{ type: 'xstate.done.actor.replenish', output: { keyPackagesLeft: 10 } }],
    'xstate.error.actor.replenish': () => [
      { type: 'xstate.error.actor.replenish', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.send': () => [{ type: 'xstate.done.actor.send', output: { messageId: 'm9' } }],
    'xstate.error.actor.send': () => [
      { type: 'xstate.error.actor.send', error: conflict },
      { type: 'xstate.error.actor.send', error: new RequestFailure(403, 'Нельзя') },
    ],
    'xstate.done.actor.decrypt': () => [{ type: 'xstate.done.actor.decrypt', output: { messageId: 'm1' } }],
    'xstate.error.actor.decrypt': () => [
      { type: 'xstate.error.actor.decrypt', error: new SecretCryptoError('gap', 'Пропущены коммиты группы') },
      { type: 'xstate.error.actor.decrypt', error: new SecretCryptoError('badMessage', 'Сообщение не читается') },
    ],
  },
});

/** A fake server and crypto service behind the machine's actors, answering in order. */
function harness(opts: { keyPackagesLeft?: number; sendAnswers?: Array<'ok' | 409 | 403>; leafDue?: boolean[] } = {}) {
  const calls: string[] = [];
  const commitLeaf = () => {
    seq += 1;
    calls.push('update leaf');
    return { seq, epoch: seq };
  };
  const sendAnswers = [...(opts.sendAnswers ?? ['ok'])];
  let seq = 0;
  const machine = secretChatMachine.provide({
    actors: {
      register: fromPromise<RegisterResult, { userId: string }>(async ({ input }) => {
        calls.push(`register ${input.userId}`);
        return { deviceId: 'd1', keyPackagesLeft: opts.keyPackagesLeft ?? 10 };
      }),
      catchUp: fromPromise<CatchUpResult, Where & { after: number }>(async ({ input }) => {
        calls.push(`catchUp after ${input.after}`);
        seq += 1;
        return { seq, epoch: seq, removed: false, skipped: 0 };
      }),
      commit: fromPromise<CommitResult, Where>(async () => {
        calls.push('commit');
        return { seq, epoch: seq, keyPackagesLeft: 10 };
      }),
      updateLeaf: fromPromise<LeafUpdateResult, Where>(async () => (opts.leafDue?.shift() ? commitLeaf() : null)),
      send: fromPromise<{ messageId: string }, Where & { item: Outgoing }>(async ({ input }) => {
        const answer = sendAnswers.shift() ?? 'ok';
        calls.push(`send ${input.item.clientMessageId} → ${answer}`);
        if (answer !== 'ok') throw new RequestFailure(answer, answer === 409 ? 'Эпоха сменилась' : 'Нельзя');
        return { messageId: `id-${input.item.clientMessageId}` };
      }),
      decrypt: fromPromise<{ messageId: string }, Where & { item: Incoming }>(async ({ input }) => {
        calls.push(`decrypt ${input.item.messageId}`);
        return { messageId: input.item.messageId };
      }),
      replenish: fromPromise<{ keyPackagesLeft: number }, { userId: string; deviceId: string; left: number }>(
        async ({ input }) => {
          calls.push(`replenish from ${input.left}`);
          return { keyPackagesLeft: 10 };
        },
      ),
    },
  });
  const actor = createActor(machine, { input });
  const emitted: SecretChatEmitted[] = [];
  for (const t of ['secretChat.sent', 'secretChat.sendFailed', 'secretChat.read', 'secretChat.unreadable'] as const)
    actor.on(t, (e) => emitted.push(e));
  actor.start();
  return { actor, calls, emitted };
}

describe('secretChat behaviour', () => {
  it('registers, joins, tops up key packages when low, and sends and reads in order', async () => {
    vi.useFakeTimers();
    const { actor, calls, emitted } = harness({ keyPackagesLeft: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'secretChat.send', item: out });
    actor.send({ type: 'secretChat.received', item: inc });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['register u1', 'catchUp after 0', 'replenish from 2', 'send k1 → ok', 'decrypt m1']);
    expect(emitted).toEqual([
      { type: 'secretChat.sent', clientMessageId: 'k1', messageId: 'id-k1' },
      { type: 'secretChat.read', messageId: 'm1' },
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ outgoing: [], incoming: [], keyPackagesLeft: 10 });
    actor.stop();
    vi.useRealTimers();
  });

  it('asks whether its leaf update is due after joining and hourly while idle, and commits it when it is', async () => {
    vi.useFakeTimers();
    // Due at once (a group kept from before), then not, then due again an hour on.
    const { actor, calls } = harness({ leafDue: [true, false, true] });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['register u1', 'catchUp after 0', 'update leaf']);
    expect(actor.getSnapshot().context).toMatchObject({ seq: 2, epoch: 2, leafDue: false });
    await vi.advanceTimersByTimeAsync(SECRET_LEAF_CHECK_MS);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(SECRET_LEAF_CHECK_MS);
    expect(calls.slice(3)).toEqual(['update leaf']);
    expect(actor.getSnapshot().context).toMatchObject({ seq: 3, epoch: 3 });
    actor.stop();
    vi.useRealTimers();
  });

  it('on a 409 catches up and sends once more; a second 409 fails the message', async () => {
    vi.useFakeTimers();
    const once = harness({ sendAnswers: [409, 'ok'] });
    await vi.advanceTimersByTimeAsync(0);
    once.actor.send({ type: 'secretChat.send', item: out });
    await vi.advanceTimersByTimeAsync(0);
    expect(once.calls.slice(2)).toEqual(['send k1 → 409', 'catchUp after 1', 'send k1 → ok']);
    expect(once.emitted).toEqual([{ type: 'secretChat.sent', clientMessageId: 'k1', messageId: 'id-k1' }]);

    const twice = harness({ sendAnswers: [409, 409] });
    await vi.advanceTimersByTimeAsync(0);
    twice.actor.send({ type: 'secretChat.send', item: out });
    await vi.advanceTimersByTimeAsync(0);
    expect(twice.calls.slice(2)).toEqual(['send k1 → 409', 'catchUp after 1', 'send k1 → 409']);
    expect(twice.emitted).toEqual([
      { type: 'secretChat.sendFailed', clientMessageId: 'k1', message: 'Эпоха сменилась' },
    ]);
    expect(twice.actor.getSnapshot().context.sendRetried).toBe(false);
    vi.useRealTimers();
  });

  it('commits when the server lists devices to add or remove, and retries registering after a failure', async () => {
    vi.useFakeTimers();
    const { actor, calls } = harness();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'secretChat.pending' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.slice(2)).toEqual(['commit']);
    expect(actor.getSnapshot().context.commitDue).toBe(false);

    let attempts = 0;
    const flaky = createActor(
      secretChatMachine.provide({
        actors: {
          register: fromPromise<RegisterResult, { userId: string }>(async () => {
            attempts += 1;
            throw new RequestFailure(null, null);
          }),
        },
      }),
      { input },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(flaky.getSnapshot().value).toBe('failed');
    expect(flaky.getSnapshot().context.error).toBe('Секретный чат недоступен: повторим попытку');
    await vi.advanceTimersByTimeAsync(SECRET_RETRY_MS);
    expect(attempts).toBe(2);
    flaky.stop();
    actor.stop();
    vi.useRealTimers();
  });

  it('does not lose a log event heard while the log is being fetched: a welcome just committed is read', async () => {
    vi.useFakeTimers();
    const fetches: Array<(r: CatchUpResult) => void> = [];
    const actor = createActor(
      secretChatMachine.provide({
        actors: {
          register: registered,
          catchUp: fromPromise<CatchUpResult, Where & { after: number }>(
            () => new Promise((resolve) => fetches.push(resolve)),
          ),
        },
      }),
      { input },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toHaveLength(1);
    // The adder's commit and welcome land after the server answered «not in the group yet», before it arrived.
    actor.send({ type: 'secretChat.log', seq: 1, epoch: 1 });
    fetches[0]?.({ seq: 0, epoch: null, removed: false, skipped: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toHaveLength(2);
    expect(actor.getSnapshot().hasTag('waiting')).toBe(false);
    fetches[1]?.({ seq: 1, epoch: 1, removed: false, skipped: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');

    // The same while catching up: the log is fetched once more, then the device rests.
    actor.send({ type: 'secretChat.log', seq: 2, epoch: 2 });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'secretChat.log', seq: 3, epoch: 3 });
    fetches[2]?.({ seq: 2, epoch: 2, removed: false, skipped: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toHaveLength(4);
    fetches[3]?.({ seq: 3, epoch: 3, removed: false, skipped: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.seq).toBe(3);
    expect(fetches).toHaveLength(4);
    actor.stop();
    vi.useRealTimers();
  });

  it('after a commit it could not apply waits to be added again, says so, and joins from the next welcome', async () => {
    vi.useFakeTimers();
    const answers: CatchUpResult[] = [
      { seq: 1, epoch: 1, removed: false, skipped: 0 },
      { seq: 3, epoch: null, removed: false, skipped: 1 },
      { seq: 5, epoch: 3, removed: false, skipped: 0 },
    ];
    const actor = createActor(
      secretChatMachine.provide({
        actors: {
          register: registered,
          catchUp: fromPromise<CatchUpResult, Where & { after: number }>(async () => answers.shift() as CatchUpResult),
        },
      }),
      { input },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'secretChat.log', seq: 3, epoch: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().hasTag('rejoining')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ epoch: null, seq: 3 });
    // The re-addition's welcome.
    actor.send({ type: 'secretChat.log', seq: 5, epoch: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ epoch: 3, seq: 5 });
    actor.stop();
    vi.useRealTimers();
  });

  it('commits again on the retry after a commit failed: the devices to add are still owed', async () => {
    vi.useFakeTimers();
    let commits = 0;
    const actor = createActor(
      secretChatMachine.provide({
        actors: {
          register: registered,
          catchUp: fromPromise<CatchUpResult, Where & { after: number }>(async () => ({
            seq: 1,
            epoch: 1,
            removed: false,
            skipped: 0,
          })),
          commit: fromPromise<CommitResult, Where>(async () => {
            commits += 1;
            if (commits === 1) throw new RequestFailure(null, null);
            return { seq: 2, epoch: 2, keyPackagesLeft: 10 };
          }),
        },
      }),
      { input },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'secretChat.pending' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('failed');
    await vi.advanceTimersByTimeAsync(SECRET_RETRY_MS);
    expect(commits).toBe(2);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ epoch: 2, commitDue: false });
    actor.stop();
    vi.useRealTimers();
  });
});
