import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { Contact, PublicUser } from '../../../contract/entities';
import { backspaceIn, EMPTY_CODE, pasteCode, typeInto } from './code-boxes';
import { NOW_FRIENDS, REQUEST_SENT } from '../contacts/contacts.protocol';
import { ADD_FAILED, contactCodeMachine, NOBODY_FOUND, SEARCH_LIMITED } from './contactCode.machine';

const boris: PublicUser = {
  id: 'u2',
  username: 'boris',
  displayName: 'Борис',
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
};
const contact = (status: Contact['status']): Contact => ({ id: 'c1', status, direction: 'outgoing', friend: boris });
const httpError = (status: number, message?: string) => {
  return new RequestFailure(status, message ?? null);
};
const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const code = (digits: readonly string[]) => digits.join('');
type Snap = { context: { digits: readonly string[] } };
const complete = (s: Snap) => /^\d{4}$/.test(code(s.context.digits));
const empty = (s: Snap) => code(s.context.digits) === '';

describeModel({
  name: 'contactCode',
  machine: contactCodeMachine.provide({ actors: { search: hang, addContact: hang } }),
  events: {
    // Events are offered only where they tell something new, to keep the graph small: typing in the focused box
    // ('x' is stripped, tried on empty boxes), Backspace anywhere, a paste into empty boxes.
    'code.typed': (s) =>
      complete(s) && !s.matches('adding')
        ? []
        : [
            { type: 'code.typed', index: s.context.focus, value: '1' },
            ...(empty(s) ? [{ type: 'code.typed', index: s.context.focus, value: 'x' }] : []),
          ],
    'code.backspace': (s) => [{ type: 'code.backspace', index: s.context.focus }],
    'code.pasted': (s) => (empty(s) || s.matches('adding') ? [{ type: 'code.pasted', text: '56-78' }] : []),
    'code.focused': (s) => (s.context.focus === 0 || complete(s) ? [] : [{ type: 'code.focused', index: 0 }]),
    'code.add': (s) => (complete(s) ? [{ type: 'code.add' }] : []),
    'code.reset': (s) => (s.matches('settled') || s.matches('adding') ? [{ type: 'code.reset' }] : []),
    'xstate.done.actor.search': (s) => [
      { type: 'xstate.done.actor.search', output: { code: code(s.context.digits), user: boris } },
      { type: 'xstate.done.actor.search', output: { code: code(s.context.digits), user: null } },
      // An answer for an older code arriving late.
      { type: 'xstate.done.actor.search', output: { code: '0000', user: boris } },
    ],
    'xstate.error.actor.search': () => [
      { type: 'xstate.error.actor.search', error: httpError(429, 'Слишком много запросов') },
      { type: 'xstate.error.actor.search', error: httpError(500) },
    ],
    'xstate.done.actor.addContact': () => [
      { type: 'xstate.done.actor.addContact', output: { contact: contact('PENDING') } },
      { type: 'xstate.done.actor.addContact', output: { contact: contact('ACCEPTED') } },
    ],
    'xstate.error.actor.addContact': () => [
      { type: 'xstate.error.actor.addContact', error: httpError(409, 'Запрос уже отправлен') },
      { type: 'xstate.error.actor.addContact', error: new Error('offline') },
    ],
  },
});

describe('code boxes', () => {
  const start = { digits: EMPTY_CODE, focus: 0 };
  it('strips non-digits, keeps one digit per box and moves the focus on', () => {
    expect(typeInto(start, 0, 'a')).toEqual({ digits: ['', '', '', ''], focus: 0 });
    expect(typeInto(start, 0, '7')).toEqual({ digits: ['7', '', '', ''], focus: 1 });
    const two = typeInto(typeInto(start, 0, '7'), 1, '٣8'); // a non-ASCII digit is stripped too
    expect(two).toEqual({ digits: ['7', '8', '', ''], focus: 2 });
    // Typing over a filled box replaces its digit.
    expect(typeInto(two, 0, '79')).toEqual({ digits: ['9', '8', '', ''], focus: 1 });
    // The focus never leaves the last box.
    expect(typeInto({ digits: ['1', '2', '3', ''], focus: 3 }, 3, '4')).toEqual({
      digits: ['1', '2', '3', '4'],
      focus: 3,
    });
  });

  it('Backspace clears the box, or steps back from an empty one', () => {
    const s = { digits: ['1', '2', '', ''] as const, focus: 2 };
    expect(backspaceIn(s, 2)).toEqual({ digits: ['1', '', '', ''], focus: 1 });
    expect(backspaceIn(s, 1)).toEqual({ digits: ['1', '', '', ''], focus: 1 });
    expect(backspaceIn({ digits: EMPTY_CODE, focus: 0 }, 0)).toEqual({ digits: EMPTY_CODE, focus: 0 });
  });

  it('a pasted four-digit code fills all four boxes; anything else changes nothing', () => {
    expect(pasteCode(start, ' 12 34 ')).toEqual({ digits: ['1', '2', '3', '4'], focus: 3 });
    expect(pasteCode(start, '123')).toBe(start);
    expect(pasteCode(start, '12345')).toBe(start);
    // Four digits typed into one box (autofill) count as a paste.
    expect(typeInto(start, 2, '4321')).toEqual({ digits: ['4', '3', '2', '1'], focus: 3 });
  });
});

describe('contactCode with resolving actors', () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  it('a slow answer for an older code never replaces the answer for the newer one', async () => {
    const answers = new Map<string, ReturnType<typeof deferred<{ code: string; user: PublicUser | null }>>>();
    const actor = createActor(
      contactCodeMachine.provide({
        actors: {
          search: fromPromise(({ input }: { input: { code: string } }) => {
            const d = deferred<{ code: string; user: PublicUser | null }>();
            answers.set(input.code, d);
            return d.promise;
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'code.pasted', text: '1111' });
    actor.send({ type: 'code.pasted', text: '1234' });
    expect([...answers.keys()]).toEqual(['1111', '1234']);
    answers.get('1234')!.resolve({ code: '1234', user: boris });
    await waitFor(actor, (s) => s.matches('settled'));
    answers.get('1111')!.resolve({ code: '1111', user: { ...boris, id: 'old', displayName: 'Старый' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.result?.id).toBe('u2');
  });

  it('an incomplete code clears the result without a search; 429 shows the limit message', async () => {
    let searches = 0;
    const actor = createActor(
      contactCodeMachine.provide({
        actors: {
          search: fromPromise(async ({ input }: { input: { code: string } }) => {
            searches++;
            if (input.code === '9999') throw httpError(429);
            return { code: input.code, user: input.code === '1234' ? boris : null };
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'code.pasted', text: '1234' });
    await waitFor(actor, (s) => s.matches('settled'));
    expect(actor.getSnapshot().context.result).toEqual(boris);
    actor.send({ type: 'code.backspace', index: 3 });
    expect(actor.getSnapshot().context).toMatchObject({ result: null, notice: null, digits: ['1', '2', '3', ''] });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'code.typed', index: 3, value: '5' });
    await waitFor(actor, (s) => s.matches('settled'));
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'info', text: NOBODY_FOUND });
    actor.send({ type: 'code.pasted', text: '9999' });
    await waitFor(actor, (s) => s.matches('settled'));
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'error', text: SEARCH_LIMITED });
    expect(searches).toBe(3);
  });

  it('adds by the four digits, tells the contacts actor, and clears the boxes', async () => {
    let added: unknown;
    const heard: unknown[] = [];
    const contacts = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
    const codeMachine = contactCodeMachine.provide({
      actors: {
        search: fromPromise(async ({ input }: { input: { code: string } }) => ({
          code: input.code,
          user: boris,
        })) as never,
        addContact: fromPromise(async ({ input }: { input: { identifier: string } }) => {
          added = input;
          return { contact: contact('PENDING') };
        }),
      },
    });
    const parent = createMachine({
      invoke: [
        { id: 'contacts', src: contacts, systemId: 'contacts' },
        { id: 'code', src: codeMachine, systemId: 'contactCode' },
      ],
    });
    const root = createActor(parent).start();
    const actor = root.system.get('contactCode');
    actor.send({ type: 'code.add' }); // nothing to add yet
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'code.pasted', text: '1234' });
    await waitFor(actor, (s: { value: unknown }) => s.value === 'settled');
    actor.send({ type: 'code.add' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s: { value: unknown }) => s.value === 'idle');
    expect(added).toEqual({ identifier: '1234' });
    expect(heard).toContainEqual({ type: 'contacts.upsert', contact: contact('PENDING') });
    expect(actor.getSnapshot().context).toMatchObject({
      digits: EMPTY_CODE,
      result: null,
      notice: { text: REQUEST_SENT },
    });
    root.stop();
  });

  it('a failed add shows the server message, or a fallback', async () => {
    for (const [error, text] of [
      [httpError(409, 'Вы уже друзья'), 'Вы уже друзья'],
      [new Error('offline'), ADD_FAILED],
    ] as const) {
      const actor = createActor(
        contactCodeMachine.provide({
          actors: {
            search: fromPromise(async () => ({ code: '1234', user: boris })) as never,
            addContact: fromPromise(async () => {
              throw error;
            }) as never,
          },
        }),
      ).start();
      actor.send({ type: 'code.pasted', text: '1234' });
      await waitFor(actor, (s) => s.matches('settled'));
      actor.send({ type: 'code.add' });
      await waitFor(actor, (s) => s.matches('settled') && s.context.notice !== null);
      expect(actor.getSnapshot().context).toMatchObject({ result: boris, notice: { kind: 'error', text } });
    }
    expect(NOW_FRIENDS).toBe('Теперь вы друзья');
  });
});
