import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { schemeOf, type ThemeChoice } from '../../../contract/theme';
import { themeMachine } from './theme.machine';

const quiet = fromCallback(() => () => {}) as never;
const hang = fromPromise(() => new Promise<never>(() => {})) as never;

describeModel({
  name: 'theme',
  machine: themeMachine.provide({ actors: { readChoice: hang, systemScheme: quiet, document: quiet } }),
  events: {
    'theme.choose': () => [
      { type: 'theme.choose', choice: 'system' },
      { type: 'theme.choose', choice: 'light' },
      { type: 'theme.choose', choice: 'dark' },
    ],
    'theme.system': (s) => [{ type: 'theme.system', dark: !s.context.systemDark }],
    'xstate.done.actor.readChoice': () =>
      (['system', 'light', 'dark'] as const).map((output) => ({ type: 'xstate.done.actor.readChoice', output })),
    'xstate.error.actor.readChoice': () => [{ type: 'xstate.error.actor.readChoice', error: new Error('storage off') }],
  },
});

/** The theme actor with a stored choice and a system setting it can flip; what it shows and keeps is recorded. */
function start(stored: ThemeChoice, systemDark: boolean) {
  const told: AnyEventObject[] = [];
  let flip: (dark: boolean) => void = () => {};
  const actor = createActor(
    themeMachine.provide({
      actors: {
        readChoice: fromPromise(async () => stored),
        systemScheme: fromCallback(({ sendBack }) => {
          flip = (dark) => sendBack({ type: 'theme.system', dark });
          flip(systemDark);
        }),
        document: fromCallback(({ receive }) => receive((e) => told.push(e))),
      },
    }),
  ).start();
  const shown = () => told.filter((e) => e.type === 'theme.apply').at(-1)?.scheme;
  return { actor, told, shown, flip: (dark: boolean) => flip(dark) };
}

describe('the theme', () => {
  it('chooses the scheme: the system’s for «Системная», else the one chosen', () => {
    expect(schemeOf('system', true)).toBe('dark');
    expect(schemeOf('system', false)).toBe('light');
    expect(schemeOf('light', true)).toBe('light');
    expect(schemeOf('dark', false)).toBe('dark');
  });

  it('«Системная» follows the system live', async () => {
    const t = start('system', true);
    await waitFor(t.actor, (s) => s.matches('system'));
    expect(t.shown()).toBe('dark');
    t.flip(false);
    expect(t.shown()).toBe('light');
  });

  it('a stored «Тёмная» shows dark on a light system and ignores the system’s changes', async () => {
    const t = start('dark', false);
    await waitFor(t.actor, (s) => s.matches('dark'));
    expect(t.shown()).toBe('dark');
    t.flip(true);
    t.flip(false);
    expect(t.shown()).toBe('dark');
  });

  it('a choice shows at once and is kept on this device', async () => {
    const t = start('system', false);
    await waitFor(t.actor, (s) => s.matches('system'));
    t.actor.send({ type: 'theme.choose', choice: 'dark' });
    expect(t.shown()).toBe('dark');
    expect(t.told).toContainEqual({ type: 'theme.store', choice: 'dark' });
    t.actor.send({ type: 'theme.choose', choice: 'system' });
    expect(t.shown()).toBe('light');
    expect(t.told.at(-2)).toEqual({ type: 'theme.store', choice: 'system' });
  });
});
