import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { HISTORY_FAILED, HISTORY_TAGS, historySettingMachine } from './historySetting.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'historySetting',
  machine: historySettingMachine.provide({ actors: { saveHistory: hang } }),
  inputs: [{ conversationId: 'g1' }],
  contextKey: (c) => `${c.choice}|${c.error ? 'e' : ''}`,
  events: {
    'history.set': () => [{ type: 'history.set', visible: false }],
    'history.dismiss': () => [{ type: 'history.dismiss' }],
    'xstate.done.actor.saveHistory': () => [{ type: 'xstate.done.actor.saveHistory', output: {} }],
    'xstate.error.actor.saveHistory': () => [
      {
        type: 'xstate.error.actor.saveHistory',
        error: new RequestFailure(403, 'Это могут только владелец и администраторы группы'),
      },
    ],
  },
});

function start(fail: boolean[]) {
  const sent: { conversationId: string; visible: boolean }[] = [];
  const actor = createActor(
    historySettingMachine.provide({
      actors: {
        saveHistory: fromPromise(async ({ input }: { input: { conversationId: string; visible: boolean } }) => {
          sent.push(input);
          if (fail.shift()) throw new Error('сеть');
          return {};
        }) as never,
      },
    }),
    { input: { conversationId: 'g1' } },
  ).start();
  return { actor, sent };
}

describe('historySetting with a server', () => {
  it('saves the choice, showing it while saving; a second choice meanwhile waits', async () => {
    const { actor, sent } = start([]);
    actor.send({ type: 'history.set', visible: false });
    expect(actor.getSnapshot().hasTag(HISTORY_TAGS.saving)).toBe(true);
    expect(actor.getSnapshot().context.choice).toBe(false);
    actor.send({ type: 'history.set', visible: true });
    await waitFor(actor, (s) => s.value === 'shown');
    expect(sent).toEqual([{ conversationId: 'g1', visible: false }]);
    expect(actor.getSnapshot().context).toMatchObject({ choice: null, error: null });
  });

  it('a failure says so; choosing again retries, dismissing clears it', async () => {
    const { actor, sent } = start([true, false]);
    actor.send({ type: 'history.set', visible: true });
    await waitFor(actor, (s) => s.hasTag(HISTORY_TAGS.failed));
    expect(actor.getSnapshot().context.error).toBe(HISTORY_FAILED);
    actor.send({ type: 'history.set', visible: true });
    await waitFor(actor, (s) => s.value === 'shown');
    expect(sent).toHaveLength(2);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
