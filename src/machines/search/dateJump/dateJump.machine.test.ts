import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type DayRequest, dateJumpMachine, NOTHING_SINCE_DAY } from './dateJump.machine';

const hang = fromPromise<never, unknown>(() => new Promise<never>(() => {}));

describeModel({
  name: 'dateJump',
  machine: dateJumpMachine.provide({ actors: { findDay: hang } as never }),
  events: {
    'dateJump.go': (s) => [
      {
        type: 'dateJump.go',
        conversationId: 'c1',
        day: s.context.asked?.day === '2026-05-01' ? '2026-05-02' : '2026-05-01',
      },
    ],
    'xstate.done.actor.findDay': () => [
      { type: 'xstate.done.actor.findDay', output: { messageId: 'm7' } },
      { type: 'xstate.done.actor.findDay', output: { messageId: null } },
    ],
    'xstate.error.actor.findDay': () => [
      { type: 'xstate.error.actor.findDay', error: new RequestFailure(400, 'Дата — в виде ГГГГ-ММ-ДД') },
    ],
  },
});

describe('«Перейти к дате» with a fetching actor', () => {
  function start(findDay: (r: DayRequest) => Promise<{ messageId: string | null }>) {
    const opened: unknown[] = [];
    const asked: DayRequest[] = [];
    const chats = createMachine({ on: { '*': { actions: ({ event }) => opened.push(event) } } });
    const machine = dateJumpMachine.provide({
      actors: {
        findDay: fromPromise(({ input }: { input: DayRequest }) => {
          asked.push(input);
          return findDay(input);
        }),
      } as never,
    });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'chats', src: chats, systemId: 'chats' },
          { id: 'dateJump', src: machine, systemId: 'dateJump' },
        ],
      }),
    ).start();
    return { actor: root.system.get('dateJump'), opened, asked };
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('opens the conversation at the day’s first message, as a search result chosen does', async () => {
    const { actor, opened, asked } = start(async () => ({ messageId: 'm7' }));
    actor.send({ type: 'dateJump.go', conversationId: 'c3', day: '2026-05-01' });
    expect(actor.getSnapshot().hasTag('looking')).toBe(true);
    await settle();
    expect(asked).toEqual([{ conversationId: 'c3', day: '2026-05-01' }]);
    expect(opened).toEqual([{ type: 'chats.open', conversationId: 'c3', messageId: 'm7' }]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('says when the day has nothing since, and passes on the server’s refusal', async () => {
    let answer: () => Promise<{ messageId: string | null }> = async () => ({ messageId: null });
    const { actor, opened } = start(() => answer());
    actor.send({ type: 'dateJump.go', conversationId: 'c3', day: '2030-01-01' });
    await settle();
    expect(actor.getSnapshot().hasTag('failed')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(NOTHING_SINCE_DAY);
    answer = () => Promise.reject(new RequestFailure(400, 'Такого часового пояса нет'));
    actor.send({ type: 'dateJump.go', conversationId: 'c3', day: '2026-05-01' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await settle();
    expect(actor.getSnapshot().context.error).toBe('Такого часового пояса нет');
    expect(opened).toEqual([]);
  });
});
