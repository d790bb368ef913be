// «Создать опрос» (protocol: pollComposer.protocol.ts): editing → sending → sent, or back to editing with the
// server's words. «Создать» with a draft that cannot go stays in editing and says why (the same words as the server).
import { assign, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import { POLL } from '../../../contract/limits';
import { pollDraftProblem } from '../../../contract/poll-draft';
import { notWired } from '../../shared/not-wired';
import {
  POLL_COMPOSER_TAGS,
  POLL_SEND_FAILED,
  type PollComposerContext,
  type PollComposerEffects,
  type PollComposerEvent,
  type PollComposerInput,
} from './pollComposer.protocol';

export * from './pollComposer.protocol';

export const pollComposerMachine = setup({
  types: {
    context: {} as PollComposerContext,
    events: {} as PollComposerEvent,
    input: {} as PollComposerInput,
  },
  // Typed by the port its feature's services implement.
  actors: {
    createPoll: notWired('pollComposer.createPoll') as PollComposerEffects['createPoll'],
  },
  guards: {
    invalid: ({ context }) => pollDraftProblem(context, POLL) !== null,
  },
  actions: {
    // Any change clears what was said about the draft before.
    edit: assign(({ context, event }) => {
      switch (event.type) {
        case 'poll.question':
          return { question: event.text, error: null };
        case 'poll.option':
          return { options: context.options.map((o, i) => (i === event.index ? event.text : o)), error: null };
        case 'poll.addOption':
          return context.options.length < POLL.optionsMax ? { options: [...context.options, ''], error: null } : {};
        case 'poll.removeOption': {
          if (context.options.length <= POLL.optionsMin) return {};
          const correct = context.correctOption;
          return {
            options: context.options.filter((_, i) => i !== event.index),
            // The right option follows its text; removing it unmarks it.
            correctOption:
              correct === null || correct === event.index ? null : correct > event.index ? correct - 1 : correct,
            error: null,
          };
        }
        case 'poll.multiple':
          return { multiple: event.on, quiz: event.on ? false : context.quiz, error: null };
        case 'poll.anonymous':
          return { anonymous: event.on, error: null };
        case 'poll.quiz':
          return { quiz: event.on, multiple: event.on ? false : context.multiple, error: null };
        case 'poll.correct':
          return { correctOption: event.index, error: null };
        case 'poll.explanation':
          return { explanation: event.text, error: null };
        default:
          return {};
      }
    }),
    refuse: assign({ error: ({ context }) => pollDraftProblem(context, POLL) }),
  },
}).createMachine({
  id: 'pollComposer',
  context: ({ input }) => ({
    conversationId: input.conversationId,
    question: '',
    options: ['', ''],
    multiple: false,
    anonymous: false,
    quiz: false,
    correctOption: null,
    explanation: '',
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'poll.question': { actions: 'edit' },
        'poll.option': { actions: 'edit' },
        'poll.addOption': { actions: 'edit' },
        'poll.removeOption': { actions: 'edit' },
        'poll.multiple': { actions: 'edit' },
        'poll.anonymous': { actions: 'edit' },
        'poll.quiz': { actions: 'edit' },
        'poll.correct': { actions: 'edit' },
        'poll.explanation': { actions: 'edit' },
        'poll.submit': [{ guard: 'invalid', actions: 'refuse' }, { target: 'sending' }],
      },
    },
    sending: {
      tags: [POLL_COMPOSER_TAGS.busy],
      invoke: {
        id: 'createPoll',
        src: 'createPoll',
        input: ({ context }) => ({
          conversationId: context.conversationId,
          question: context.question.trim(),
          options: context.options.map((o) => o.trim()),
          multiple: context.multiple,
          anonymous: context.anonymous,
          correctOption: context.quiz ? context.correctOption : null,
          explanation: context.quiz && context.explanation.trim() ? context.explanation.trim() : null,
        }),
        onDone: 'sent',
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, POLL_SEND_FAILED) }),
        },
      },
    },
    sent: { tags: [POLL_COMPOSER_TAGS.sent], type: 'final' },
  },
});
