// Editing an own message (the conversation actor's child 'messageEdit'): `edit.start` (the menu's «Изменить», or
// ↑ in an empty composer) puts the message's text in the composer with the «Редактирование» banner; Enter saves
// (`edit.save`), Escape or the banner's close button cancels. Saving the unchanged text just closes (the server
// would answer with the same message). A failed save keeps the text and shows the server's message.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { failureOf, type RequestFailure } from '../../../contract/failure';
import { parseMarkup } from '../../../contract/text-markup';
import { notWired } from '../../shared/not-wired';
import type {
  MessageEditContext,
  MessageEditEffects,
  MessageEditEvent,
  MessageEditParentEvent,
} from './messageEdit.protocol';

export * from './messageEdit.protocol';

export const EDIT_EMPTY = 'Сообщение не может быть пустым';
export const EDIT_FAILED = 'Не удалось изменить сообщение';

const idle = (): MessageEditContext => ({ messageId: null, original: '', text: '', error: null });

export const messageEditMachine = setup({
  types: { context: {} as MessageEditContext, events: {} as MessageEditEvent },
  actors: {
    saveEdit: notWired('messageEdit.saveEdit') as MessageEditEffects['saveEdit'],
  },
  guards: {
    unchanged: ({ context }) => context.text.trim() === context.original.trim(),
    empty: ({ context }) => context.text.trim().length === 0,
  },
  actions: {
    begin: assign(({ event }) => {
      assertEvent(event, 'edit.start');
      return { messageId: event.messageId, original: event.content, text: event.content, error: null };
    }),
    setText: assign({
      text: ({ event }) => {
        assertEvent(event, 'edit.input');
        return event.text;
      },
    }),
    refuseEmpty: assign({ error: EDIT_EMPTY }),
    // The request, from the message being edited (always known while editing); its markers become formatting.
    submit: enqueueActions(({ context, enqueue }) => {
      if (context.messageId === null) return;
      const { text, entities } = parseMarkup(context.text.trim());
      enqueue.raise({
        type: 'edit.submit',
        messageId: context.messageId,
        content: text,
        ...(entities.length ? { entities } : {}),
      });
    }),
    clear: assign(idle),
    failed: assign({ error: (_, failure: RequestFailure) => failure.serverMessage ?? EDIT_FAILED }),
    // To the parent only when there is one: a graph test runs this machine alone.
    saved: enqueueActions(({ self, enqueue }, { message }: ResponseOf<'editMessage'>) => {
      const saved: MessageEditParentEvent = { type: 'edit.saved', message };
      if (self._parent) enqueue.sendParent(saved);
      enqueue.assign(idle());
    }),
  },
}).createMachine({
  id: 'messageEdit',
  context: idle,
  initial: 'idle',
  on: { 'edit.start': { target: '.editing', actions: 'begin' } },
  states: {
    idle: {},
    editing: {
      tags: ['editing'],
      on: {
        'edit.input': { actions: 'setText' },
        'edit.cancel': { target: 'idle', actions: 'clear' },
        'edit.save': [
          { guard: 'empty', actions: 'refuseEmpty' },
          { guard: 'unchanged', target: 'idle', actions: 'clear' },
          { actions: 'submit' },
        ],
        'edit.submit': 'saving',
      },
    },
    saving: {
      tags: ['editing', 'saving'],
      // A second start while saving waits for the answer: the first edit must not be lost.
      on: { 'edit.start': {} },
      invoke: {
        id: 'saveEdit',
        src: 'saveEdit',
        input: ({ event }) => {
          assertEvent(event, 'edit.submit');
          return { messageId: event.messageId, content: event.content, entities: event.entities };
        },
        onDone: { target: 'idle', actions: { type: 'saved', params: ({ event }) => event.output } },
        onError: { target: 'editing', actions: { type: 'failed', params: ({ event }) => failureOf(event.error) } },
      },
    },
  },
});

export type MessageEditActorRef = import('xstate').ActorRefFrom<typeof messageEditMachine>;
