import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, sendTo } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { DRAFTS } from '../../../contract/limits';
import { type DraftMap, draftsMachine, parseDrafts } from './drafts.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const quiet = fromCallback(() => () => {});
const one: DraftMap = { c1: { text: 'привет', replyTo: null } };

describeModel({
  name: 'drafts',
  machine: draftsMachine.provide({ actors: { loadDrafts: hang, saveDrafts: hang, pageExit: quiet } }),
  inputs: [{ userId: 'me' }],
  events: {
    'drafts.changed': () => [{ type: 'drafts.changed', drafts: one }],
    'drafts.flush': () => [{ type: 'drafts.flush' }],
    'xstate.done.actor.loadDrafts': () => [{ type: 'xstate.done.actor.loadDrafts', output: one }],
    'xstate.error.actor.loadDrafts': () => [{ type: 'xstate.error.actor.loadDrafts', error: new Error('x') }],
    'xstate.done.actor.saveDrafts': () => [{ type: 'xstate.done.actor.saveDrafts', output: undefined }],
    'xstate.error.actor.saveDrafts': () => [{ type: 'xstate.error.actor.saveDrafts', error: new Error('quota') }],
  },
});

describe('drafts in the browser', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function run(stored: unknown) {
    const writes: DraftMap[] = [];
    const loaded: DraftMap[] = [];
    let exit: (() => void) | null = null;
    const drafts = draftsMachine.provide({
      actors: {
        loadDrafts: fromPromise(async () => parseDrafts(stored)),
        saveDrafts: fromPromise(async ({ input }: { input: { userId: string; drafts: DraftMap } }) => {
          writes.push(input.drafts);
        }),
        pageExit: fromCallback(({ sendBack }) => {
          exit = () => sendBack({ type: 'drafts.flush' });
        }),
      },
    });
    // A parent that hears what was read and passes changes on.
    const parent = createMachine({
      invoke: { id: 'drafts', src: drafts, input: { userId: 'me' } },
      on: {
        'drafts.loaded': { actions: ({ event }) => loaded.push((event as unknown as { drafts: DraftMap }).drafts) },
        change: { actions: sendTo('drafts', ({ event }) => ({ type: 'drafts.changed', drafts: event.drafts })) },
      },
    });
    const actor = createActor(parent).start();
    return {
      writes,
      loaded,
      change: (d: DraftMap) => actor.send({ type: 'change', drafts: d } as never),
      exit: () => exit?.(),
    };
  }

  it('reads what was kept (only well-formed drafts) and tells its parent', async () => {
    const t = run({
      c1: { text: 'a', replyTo: null },
      c2: { text: 5 },
      c3: { text: '', replyTo: { id: 'm', content: 'q' } },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.loaded).toEqual([
      { c1: { text: 'a', replyTo: null }, c3: { text: '', replyTo: { id: 'm', content: 'q' } } },
    ]);
  });

  it('writes once after a burst of changes, the latest drafts', async () => {
    const t = run({});
    await vi.advanceTimersByTimeAsync(0);
    t.change({ c1: { text: 'п', replyTo: null } });
    await vi.advanceTimersByTimeAsync(DRAFTS.saveDelayMs - 1);
    t.change({ c1: { text: 'пр', replyTo: null } });
    await vi.advanceTimersByTimeAsync(DRAFTS.saveDelayMs - 1);
    expect(t.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.writes).toEqual([{ c1: { text: 'пр', replyTo: null } }]);
  });

  it('writes at once when the page goes away', async () => {
    const t = run({});
    await vi.advanceTimersByTimeAsync(0);
    t.change(one);
    t.exit();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.writes).toEqual([one]);
  });

  it('writes a change made before the stored drafts were read', async () => {
    const t = run({});
    t.change(one);
    await vi.advanceTimersByTimeAsync(DRAFTS.saveDelayMs);
    expect(t.writes).toEqual([one]);
  });
});
