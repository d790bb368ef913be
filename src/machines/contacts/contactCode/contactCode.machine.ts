// The EBLID search panel (docs/behaviour.md §2, §5): four single-digit boxes; when all four hold a digit the user is
// looked up, otherwise the result is cleared. Every edit that changes the code leaves the searching state, which
// stops the running lookup, and an answer is taken only for the code now in the boxes, so a slow answer for an
// older code never replaces a newer one. A failed lookup clears the result; the server's per-minute limit (429)
// says so. Adding needs exactly four digits and tells the contacts actor about the new request.
import { assign, enqueueActions, setup } from 'xstate';
import { failureMessage, failureOf } from '../../../contract/failure';
import { addedNotice } from '../contacts/contacts.protocol';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  backspaceIn,
  type CodeBoxes,
  type CodeDigits,
  completeCode,
  EMPTY_CODE,
  pasteCode,
  sameDigits,
  typeInto,
} from './code-boxes';
import { present } from '../../shared/present';
import {
  ADD_FAILED,
  type ContactCodeContext,
  type ContactCodeEffects,
  type ContactCodeEvent,
  NOBODY_FOUND,
  SEARCH_LIMITED,
  type SearchOutput,
} from './contactCode.protocol';

export * from './contactCode.protocol';

const initialContext = (): ContactCodeContext => ({ digits: EMPTY_CODE, focus: 0, result: null, notice: null });

/** The boxes after an edit event (the same function decides whether the code changed). */
function edited(context: ContactCodeContext, event: ContactCodeEvent): CodeBoxes {
  if (event.type === 'code.typed') return typeInto(context, event.index, event.value);
  if (event.type === 'code.backspace') return backspaceIn(context, event.index);
  if (event.type === 'code.pasted') return pasteCode(context, event.text);
  return context;
}

export const contactCodeMachine = setup({
  types: {
    context: {} as ContactCodeContext,
    events: {} as ContactCodeEvent,
  },
  actors: {
    search: notWired('contactCode.search') as ContactCodeEffects['search'],
    addContact: notWired('contactCode.addContact') as ContactCodeEffects['addContact'],
  },
  guards: {
    changesCode: ({ context, event }) => !sameDigits(edited(context, event).digits, context.digits),
    complete: ({ context }) => completeCode(context.digits) !== null,
    answersCurrentCode: ({ context }, output: SearchOutput) => output.code === completeCode(context.digits),
  },
  actions: {
    applyEdit: assign(({ context, event }) => edited(context, event)),
    forgetResult: assign({ result: null, notice: null }),
  },
}).createMachine({
  id: 'contactCode',
  context: initialContext,
  initial: 'idle',
  on: {
    'code.typed': [{ guard: 'changesCode', target: '.checking', actions: 'applyEdit' }, { actions: 'applyEdit' }],
    'code.backspace': [{ guard: 'changesCode', target: '.checking', actions: 'applyEdit' }, { actions: 'applyEdit' }],
    'code.pasted': { guard: 'changesCode', target: '.checking', actions: 'applyEdit' },
    'code.focused': { actions: assign({ focus: ({ event }) => Math.max(0, Math.min(3, event.index)) }) },
    'code.add': { guard: 'complete', target: '.adding' },
    'code.reset': { target: '.idle', actions: assign(initialContext) },
  },
  states: {
    idle: { tags: ['editable'] },
    /** Decides after every change of the code: look it up, or clear what was found for the old one. */
    checking: {
      always: [
        { guard: 'complete', target: 'searching', actions: 'forgetResult' },
        { target: 'idle', actions: 'forgetResult' },
      ],
    },
    searching: {
      tags: ['editable', 'searching'],
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({ code: present(completeCode(context.digits), 'code') }),
        onDone: {
          // Belt and braces: the invoke is stopped on every change, and an answer for another code is dropped.
          guard: { type: 'answersCurrentCode', params: ({ event }) => event.output },
          target: 'settled',
          actions: assign({
            result: ({ event }) => event.output.user,
            notice: ({ event }) => (event.output.user ? null : { kind: 'info' as const, text: NOBODY_FOUND }),
          }),
        },
        onError: [
          {
            // The server's per-minute limit on lookups.
            guard: ({ event }) => failureOf(event.error).status === 429,
            target: 'settled',
            actions: assign({ result: null, notice: { kind: 'error', text: SEARCH_LIMITED } }),
          },
          // Any other failure just clears the result (docs/behaviour.md §8).
          { target: 'settled', actions: 'forgetResult' },
        ],
      },
    },
    settled: { tags: ['editable'] },
    adding: {
      tags: ['busy'],
      // The boxes are locked while the request runs: the answer belongs to this code.
      on: {
        'code.typed': {},
        'code.backspace': {},
        'code.pasted': {},
        'code.add': {},
        'code.reset': {},
      },
      invoke: {
        id: 'addContact',
        src: 'addContact',
        input: ({ context }) => ({ identifier: present(completeCode(context.digits), 'code') }),
        onDone: {
          target: 'idle',
          actions: [
            enqueueActions(({ event, system, enqueue }) => {
              const contacts = systemActor(system, 'contacts');
              if (contacts) enqueue.sendTo(contacts, { type: 'contacts.upsert', contact: event.output.contact });
            }),
            assign(({ event }) => ({
              ...initialContext(),
              notice: { kind: 'info' as const, text: addedNotice(event.output.contact) },
            })),
          ],
        },
        onError: {
          target: 'settled',
          actions: assign({
            notice: ({ event }) => ({ kind: 'error' as const, text: failureMessage(event.error, ADD_FAILED) }),
          }),
        },
      },
    },
  },
});

export type { CodeDigits };
