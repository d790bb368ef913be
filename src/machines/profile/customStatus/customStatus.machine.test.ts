import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { person } from '../../../../tests/client/chat-fixtures';
import { describeModel } from '../../../../tests/model/harness';
import type { User } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import {
  customStatusMachine,
  STATUS_CLEAR_FAILED,
  STATUS_EMPTY,
  STATUS_SAVE_FAILED,
  type StatusChoice,
} from './customStatus.machine';

const me: User = { ...person('u1', 'Анна'), email: null, role: 'member' };
const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const set = { emoji: '🌴', text: 'В отпуске', expiresAt: null };
const withStatus = { ...me, customStatus: set };

describeModel({
  name: 'customStatus',
  machine: customStatusMachine.provide({ actors: { saveStatus: hang, clearStatus: hang } }),
  inputs: [undefined, { current: set }],
  events: {
    'customStatus.emojiChosen': (s) => [
      { type: 'customStatus.emojiChosen', emoji: s.context.emoji === '' ? '🎧' : s.context.emoji },
    ],
    'customStatus.textChanged': (s) => [
      { type: 'customStatus.textChanged', text: s.context.text === '' ? ' Работаю ' : '' },
    ],
    'customStatus.clearAfterChosen': () => [{ type: 'customStatus.clearAfterChosen', clearAfter: '30m' }],
    'customStatus.save': () => [{ type: 'customStatus.save' }],
    'customStatus.clear': () => [{ type: 'customStatus.clear' }],
    'xstate.done.actor.saveStatus': () => [{ type: 'xstate.done.actor.saveStatus', output: withStatus }],
    'xstate.error.actor.saveStatus': () => [
      {
        type: 'xstate.error.actor.saveStatus',
        error: new RequestFailure(400, 'Текст статуса — не длиннее 80 символов'),
      },
    ],
    'xstate.done.actor.clearStatus': () => [
      { type: 'xstate.done.actor.clearStatus', output: { ...me, customStatus: null } },
    ],
    'xstate.error.actor.clearStatus': () => [{ type: 'xstate.error.actor.clearStatus', error: new Error('offline') }],
  },
});

/** The dialog under a root that also runs a stand-in profile actor, which records what it is told. */
function start(opts: { current?: typeof set | null; fail?: boolean } = {}) {
  const sent: StatusChoice[] = [];
  const heard: unknown[] = [];
  const profile = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'profile', src: profile, systemId: 'profile' },
        {
          id: 'customStatus',
          systemId: 'customStatus',
          input: { current: opts.current ?? null },
          src: customStatusMachine.provide({
            actors: {
              saveStatus: fromPromise(async ({ input }: { input: StatusChoice }) => {
                sent.push(input);
                if (opts.fail) throw new RequestFailure(400, 'Эмодзи статуса — один эмодзи или ничего');
                return { ...me, customStatus: { emoji: input.emoji, text: input.text, expiresAt: null } };
              }) as never,
              clearStatus: fromPromise(async () => {
                if (opts.fail) throw new Error('offline');
                return { ...me, customStatus: null };
              }) as never,
            },
          }),
        },
      ],
    }),
  ).start();
  return { actor: root.system.get('customStatus'), sent, heard };
}

describe('the «Статус» dialog with a server', () => {
  it('saves the chosen emoji, the trimmed text and «Сбросить через», then the profile fetches the record', async () => {
    const { actor, sent, heard } = start();
    actor.send({ type: 'customStatus.emojiChosen', emoji: '🚗' });
    actor.send({ type: 'customStatus.textChanged', text: '  В дороге ' });
    actor.send({ type: 'customStatus.clearAfterChosen', clearAfter: '1h' });
    actor.send({ type: 'customStatus.save' });
    await waitFor(actor, (s: { hasTag(t: string): boolean }) => s.hasTag('done'));
    expect(sent).toEqual([{ emoji: '🚗', text: 'В дороге', clearAfter: '1h' }]);
    expect(heard).toEqual([{ type: 'profile.refetch' }]);
  });

  it('keeps at most 80 characters, and the same emoji twice takes it off', () => {
    const { actor } = start({ current: set });
    actor.send({ type: 'customStatus.textChanged', text: 'я'.repeat(100) });
    expect(actor.getSnapshot().context.text).toHaveLength(80);
    actor.send({ type: 'customStatus.emojiChosen', emoji: '🌴' });
    expect(actor.getSnapshot().context.emoji).toBe('');
  });

  it('refuses an empty status without asking the server', () => {
    const { actor, sent } = start();
    actor.send({ type: 'customStatus.textChanged', text: '   ' });
    actor.send({ type: 'customStatus.save' });
    expect(actor.getSnapshot().context.error).toBe(STATUS_EMPTY);
    expect(sent).toEqual([]);
  });

  it('says the server’s reason and keeps what was typed; «Сбросить» only with a status set', async () => {
    const failing = start({ current: set, fail: true });
    failing.actor.send({ type: 'customStatus.save' });
    await waitFor(failing.actor, (s: { context: { error: string | null } }) => s.context.error !== null);
    expect(failing.actor.getSnapshot().context.error).toBe('Эмодзи статуса — один эмодзи или ничего');
    expect(failing.actor.getSnapshot().context.text).toBe('В отпуске');
    failing.actor.send({ type: 'customStatus.clear' });
    await waitFor(failing.actor, (s: { context: { error: string | null } }) => s.context.error === STATUS_CLEAR_FAILED);
    expect(failing.heard).toEqual([]);
    const none = start();
    none.actor.send({ type: 'customStatus.clear' });
    expect(none.actor.getSnapshot().value).toBe('editing');
    expect(STATUS_SAVE_FAILED).toMatch(/статус/);
  });

  it('«Сбросить» clears it', async () => {
    const { actor, heard } = start({ current: set });
    actor.send({ type: 'customStatus.clear' });
    await waitFor(actor, (s: { hasTag(t: string): boolean }) => s.hasTag('done'));
    expect(actor.getSnapshot().context.current).toBeNull();
    expect(heard).toEqual([{ type: 'profile.refetch' }]);
  });
});
