import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type Device, DEVICES_FAILED, devicesMachine, END_FAILED } from './devices.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const device = (id: string, current = false): Device => ({
  id,
  browser: 'Chrome 130',
  os: 'Linux',
  createdAt: '2026-11-24T10:00:00.000Z',
  lastActiveAt: '2026-11-24T11:00:00.000Z',
  current,
  passkey: null,
});
type Snap = { context: { devices: Device[] } };

describeModel({
  name: 'devices',
  machine: devicesMachine.provide({ actors: { loadDevices: hang, endDevice: hang } }),
  events: {
    'xstate.done.actor.0.devices.loading': () => [
      { type: 'xstate.done.actor.0.devices.loading', output: [device('here', true), device('phone')] },
    ],
    'xstate.error.actor.0.devices.loading': () => [
      { type: 'xstate.error.actor.0.devices.loading', error: new Error('offline') },
    ],
    'devices.end': (s) =>
      (s as Snap).context.devices.length
        ? [
            { type: 'devices.end', id: 'phone' },
            { type: 'devices.end', id: 'here' },
          ]
        : [],
  },
});

/** A devices actor whose requests are recorded; the list answers from `lists` in turn. */
function start(lists: Device[][], end: (id: string) => Promise<unknown> = async () => ({ ok: true })) {
  const ended: string[] = [];
  let loads = 0;
  const actor = createActor(
    devicesMachine.provide({
      actors: {
        loadDevices: fromPromise(async () => lists[Math.min(loads++, lists.length - 1)] as Device[]),
        endDevice: fromPromise(async ({ input }: { input: { id: string } }) => {
          ended.push(input.id);
          return end(input.id);
        }),
      },
    }),
  ).start();
  return { actor, ended, loads: () => loads };
}

describe('«Устройства»', () => {
  it('lists, ends another sign-in and lists again', async () => {
    const { actor, ended, loads } = start([[device('here', true), device('phone')], [device('here', true)]]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    actor.send({ type: 'devices.end', id: 'phone' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.ending).toBe('phone');
    await waitFor(actor, (s) => s.matches('ready') && s.context.devices.length === 1);
    expect(ended).toEqual(['phone']);
    expect(loads()).toBe(2);
  });

  it('never ends this sign-in from here, nor an unknown one', async () => {
    const { actor, ended } = start([[device('here', true), device('phone')]]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'devices.end', id: 'here' });
    actor.send({ type: 'devices.end', id: 'elsewhere' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(ended).toEqual([]);
  });

  it('«Завершить все другие» only when there are others', async () => {
    const alone = start([[device('here', true)]]);
    await waitFor(alone.actor, (s) => s.matches('ready'));
    alone.actor.send({ type: 'devices.endOthers' });
    expect(alone.ended).toEqual([]);
    const many = start([[device('here', true), device('a'), device('b')], [device('here', true)]]);
    await waitFor(many.actor, (s) => s.matches('ready'));
    many.actor.send({ type: 'devices.endOthers' });
    await waitFor(many.actor, (s) => s.matches('ready') && s.context.devices.length === 1);
    expect(many.ended).toEqual(['others']);
  });

  it('keeps the list and says why when ending fails; a failed load can be retried', async () => {
    const { actor } = start([[device('here', true), device('phone')]], async () => {
      throw new RequestFailure(404, 'Сеанс не найден');
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'devices.end', id: 'phone' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Сеанс не найден');
    expect(actor.getSnapshot().context.devices).toHaveLength(2);

    let fail = true;
    const flaky = createActor(
      devicesMachine.provide({
        actors: {
          loadDevices: fromPromise(async () => {
            if (fail) throw new Error('network');
            return [device('here', true)];
          }),
          endDevice: hang,
        },
      }),
    ).start();
    await waitFor(flaky, (s) => s.matches('failed'));
    expect(flaky.getSnapshot().context.error).toBe(DEVICES_FAILED);
    fail = false;
    flaky.send({ type: 'devices.reload' });
    await waitFor(flaky, (s) => s.matches('ready'));
    expect(flaky.getSnapshot().context.error).toBeNull();
    expect(END_FAILED).toMatch(/^Не удалось/);
  });
});
