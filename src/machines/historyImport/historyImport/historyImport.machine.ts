// «Импорт истории» (protocol: historyImport.protocol.ts). Plain chats: resuming (an import of this target still under
// way?) → choosing a file → uploading (progress) → analysing (asked every TIMINGS.importPollMs) → choosing the chat of
// a whole-account export → mapping «Кто это в Беседе?» → running («Импорт: 4 200 из 12 345», asked every tick) →
// done, failed or cancelled. A secret chat: the file is read in the browser (analysingLocal), a chat chosen if
// there are several, and the reader encrypts and posts it (secretRunning); no mapping, since every message is sent
// by the importer with the author's name in its text.
import { assign, emit, setup } from 'xstate';
import { failureMessage } from '../../../contract/failure';
import type { ImportJob } from '../../../contract/history-import/jobs';
import { ImportFormatError } from '../../../contract/history-import/types';
import { TIMINGS } from '../../../contract/limits';
import { notWired, notWiredCallback } from '../../shared/not-wired';
import {
  type HistoryImportContext,
  type HistoryImportEffects,
  type HistoryImportEmitted,
  type HistoryImportEvent,
  type HistoryImportInput,
  IMPORT_CANCEL_FAILED,
  IMPORT_READ_FAILED,
  IMPORT_START_FAILED,
  IMPORT_TAGS as T,
} from './historyImport.protocol';

export * from './historyImport.protocol';

const ACTIVE = new Set(['uploading', 'analysing', 'mapping', 'running']);

type JobDone = { output: ImportJob | null };

const fresh = (input: HistoryImportInput): HistoryImportContext => ({
  ...input,
  file: null,
  uploadPercent: 0,
  job: null,
  chats: [],
  chatId: null,
  source: null,
  mapping: {},
  title: '',
  done: 0,
  total: 0,
  error: null,
});

export const historyImportMachine = setup({
  types: {
    context: {} as HistoryImportContext,
    events: {} as HistoryImportEvent,
    input: {} as HistoryImportInput,
    emitted: {} as HistoryImportEmitted,
  },
  actors: {
    findJob: notWired('historyImport.findJob') as HistoryImportEffects['findJob'],
    upload: notWiredCallback('historyImport.upload') as HistoryImportEffects['upload'],
    fetchJob: notWired('historyImport.fetchJob') as HistoryImportEffects['fetchJob'],
    chooseChat: notWired('historyImport.chooseChat') as HistoryImportEffects['chooseChat'],
    start: notWired('historyImport.start') as HistoryImportEffects['start'],
    cancel: notWired('historyImport.cancel') as HistoryImportEffects['cancel'],
    analyseLocal: notWired('historyImport.analyseLocal') as HistoryImportEffects['analyseLocal'],
    secretImport: notWiredCallback('historyImport.secretImport') as HistoryImportEffects['secretImport'],
  },
  delays: {
    importPoll: TIMINGS.importPollMs,
  },
  guards: {
    needsChat: ({ context }) =>
      context.job?.status === 'mapping' && context.chats.length > 1 && !context.job.chatId && context.chatId === null,
    isMapping: ({ context }) => context.job?.status === 'mapping',
    isRunning: ({ context }) => context.job?.status === 'running',
    isDone: ({ context }) => context.job?.status === 'done',
    isFailed: ({ context }) => context.job?.status === 'failed',
    isCancelled: ({ context }) => context.job?.status === 'cancelled',
    isSecret: ({ context }) => context.secret,
    found: (_, params: JobDone) => params.output !== null && ACTIVE.has(params.output.status),
  },
  actions: {
    keepJob: assign(({ context }, job: ImportJob | null) => {
      if (!job) return {};
      // The chosen chat stays chosen; the suggestions fill only authors not mapped yet.
      const mapping = { ...context.mapping };
      for (const a of job.authors) if (!(a.key in mapping)) mapping[a.key] = a.suggestedUserId;
      return {
        job,
        chats: job.chats,
        source: job.source,
        mapping,
        title: context.title || job.chatName || '',
        done: job.done,
        total: job.total,
        error: job.status === 'failed' ? (job.error ?? IMPORT_READ_FAILED) : null,
      };
    }),
    reset: assign(({ context }) => fresh(context)),
  },
}).createMachine({
  id: 'historyImport',
  context: ({ input }) => fresh(input),
  initial: 'resuming',
  states: {
    resuming: {
      tags: [T.resuming, T.busy],
      invoke: {
        id: 'findJob',
        src: 'findJob',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: [
          {
            // A secret chat's import runs in this browser, never on the server: after a reload its job is only where
            // it stopped, and choosing the same file again continues after the last stored batch (the position kept
            // in IndexedDB). The dialog says so.
            guard: 'isSecret',
            target: 'choosing',
            actions: assign(({ event }) =>
              event.output && ACTIVE.has(event.output.status)
                ? { done: event.output.done, total: event.output.total }
                : {},
            ),
          },
          {
            guard: { type: 'found', params: ({ event }) => event },
            target: 'routing',
            actions: { type: 'keepJob', params: ({ event }) => event.output },
          },
          { target: 'choosing' },
        ],
        // Nothing known of an earlier import: a new one can still be chosen.
        onError: 'choosing',
      },
    },
    /** Where the server's status says the import is ('uploading' and 'analysing': still being read). */
    routing: {
      always: [
        { guard: 'needsChat', target: 'choosingChat' },
        { guard: 'isMapping', target: 'mapping' },
        { guard: 'isRunning', target: 'running' },
        { guard: 'isDone', target: 'done' },
        { guard: 'isFailed', target: 'failed' },
        { guard: 'isCancelled', target: 'cancelled' },
        { target: 'analysing' },
      ],
    },
    choosing: {
      tags: [T.choose],
      on: {
        'import.file': [
          {
            guard: 'isSecret',
            target: 'analysingLocal',
            actions: assign({ file: ({ event }) => event.file, error: null }),
          },
          { target: 'uploading', actions: assign({ file: ({ event }) => event.file, error: null, uploadPercent: 0 }) },
        ],
      },
    },
    uploading: {
      tags: [T.upload, T.busy],
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context }) => ({ file: context.file as File, conversationId: context.conversationId }),
      },
      on: {
        'upload.progress': { actions: assign({ uploadPercent: ({ event }) => event.percent }) },
        'upload.done': { target: 'routing', actions: { type: 'keepJob', params: ({ event }) => event.job } },
        'upload.failed': { target: 'choosing', actions: assign({ error: ({ event }) => event.message }) },
      },
    },
    analysing: {
      tags: [T.analyse, T.busy, T.cancellable],
      initial: 'waiting',
      on: { 'import.cancel': '.cancelling' },
      states: {
        waiting: { after: { importPoll: 'checking' } },
        checking: {
          invoke: {
            id: 'fetchJob',
            src: 'fetchJob',
            input: ({ context }) => ({ id: context.job?.id ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            // Offline for a moment: asked again at the next tick.
            onError: 'waiting',
          },
        },
        cancelling: {
          invoke: {
            id: 'cancel',
            src: 'cancel',
            input: ({ context }) => ({ id: context.job?.id ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: {
              target: 'waiting',
              actions: assign({ error: ({ event }) => failureMessage(event.error, IMPORT_CANCEL_FAILED) }),
            },
          },
        },
      },
    },
    choosingChat: {
      tags: [T.chooseChat],
      initial: 'shown',
      states: {
        shown: {
          on: {
            'import.chat': [
              {
                guard: 'isSecret',
                target: '#historyImport.secretRunning',
                actions: assign({ chatId: ({ event }) => event.chatId }),
              },
              { target: 'choosing', actions: assign({ chatId: ({ event }) => event.chatId, error: null }) },
            ],
            'import.cancel': [
              { guard: 'isSecret', target: '#historyImport.cancelled' },
              { target: '#historyImport.mapping.cancelling' },
            ],
          },
        },
        /** The server reads the chosen chat's authors: analysing again, then mapping. */
        choosing: {
          tags: [T.busy],
          invoke: {
            id: 'chooseChat',
            src: 'chooseChat',
            input: ({ context }) => ({ id: context.job?.id ?? '', chatId: context.chatId ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: {
              target: 'shown',
              actions: assign({
                chatId: null,
                error: ({ event }) => failureMessage(event.error, IMPORT_START_FAILED),
              }),
            },
          },
        },
      },
    },
    mapping: {
      tags: [T.map, T.cancellable],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'import.map': {
              actions: assign({
                mapping: ({ context, event }) => ({ ...context.mapping, [event.authorKey]: event.userId }),
              }),
            },
            'import.title': { actions: assign({ title: ({ event }) => event.title }) },
            'import.start': 'starting',
            'import.cancel': 'cancelling',
          },
        },
        starting: {
          tags: [T.busy],
          entry: assign({ error: null }),
          invoke: {
            id: 'start',
            src: 'start',
            input: ({ context }) => ({
              id: context.job?.id ?? '',
              body: {
                mapping: context.mapping,
                ...(context.conversationId === null && context.title.trim() ? { title: context.title.trim() } : {}),
              },
            }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: {
              target: 'editing',
              actions: assign({ error: ({ event }) => failureMessage(event.error, IMPORT_START_FAILED) }),
            },
          },
        },
        cancelling: {
          tags: [T.busy],
          invoke: {
            id: 'cancel',
            src: 'cancel',
            input: ({ context }) => ({ id: context.job?.id ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: {
              target: 'editing',
              actions: assign({ error: ({ event }) => failureMessage(event.error, IMPORT_CANCEL_FAILED) }),
            },
          },
        },
      },
    },
    running: {
      tags: [T.run, T.cancellable],
      initial: 'waiting',
      on: { 'import.cancel': '.cancelling' },
      states: {
        waiting: { after: { importPoll: 'checking' } },
        checking: {
          invoke: {
            id: 'fetchJob',
            src: 'fetchJob',
            input: ({ context }) => ({ id: context.job?.id ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: 'waiting',
          },
        },
        cancelling: {
          tags: [T.busy],
          invoke: {
            id: 'cancel',
            src: 'cancel',
            input: ({ context }) => ({ id: context.job?.id ?? '' }),
            onDone: {
              target: '#historyImport.routing',
              actions: { type: 'keepJob', params: ({ event }) => event.output },
            },
            onError: {
              target: 'waiting',
              actions: assign({ error: ({ event }) => failureMessage(event.error, IMPORT_CANCEL_FAILED) }),
            },
          },
        },
      },
    },
    analysingLocal: {
      tags: [T.analyse, T.busy],
      invoke: {
        id: 'analyseLocal',
        src: 'analyseLocal',
        input: ({ context }) => ({
          file: context.file as File,
          conversationId: context.conversationId ?? '',
          chatId: context.chatId,
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.chats.length > 1,
            target: 'choosingChat',
            actions: assign(({ event }) => ({ ...event.output })),
          },
          { target: 'secretRunning', actions: assign(({ event }) => ({ ...event.output })) },
        ],
        onError: {
          target: 'failed',
          // The reader says what is wrong with the file.
          actions: assign({
            error: ({ event }) =>
              event.error instanceof ImportFormatError
                ? event.error.message
                : failureMessage(event.error, IMPORT_READ_FAILED),
          }),
        },
      },
    },
    secretRunning: {
      tags: [T.run, T.cancellable],
      invoke: {
        id: 'secretImport',
        src: 'secretImport',
        input: ({ context }) => ({
          file: context.file as File,
          conversationId: context.conversationId ?? '',
          userId: context.userId,
          chatId: context.chatId,
        }),
      },
      on: {
        'secretImport.progress': {
          actions: assign({ done: ({ event }) => event.done, total: ({ event }) => event.total }),
        },
        'secretImport.done': {
          target: 'done',
          actions: assign({ done: ({ event }) => event.done, total: ({ event }) => event.total }),
        },
        'secretImport.failed': { target: 'failed', actions: assign({ error: ({ event }) => event.message }) },
        // Stopping keeps what is in: the same file chosen again continues after it.
        'import.cancel': 'cancelled',
      },
    },
    done: {
      tags: [T.done],
      entry: emit(({ context }) => ({
        type: 'historyImport.finished' as const,
        conversationId: context.job?.conversationId ?? context.conversationId,
      })),
      on: { 'import.again': { target: 'choosing', actions: 'reset' } },
    },
    failed: { tags: [T.failed], on: { 'import.again': { target: 'choosing', actions: 'reset' } } },
    cancelled: { tags: [T.cancelled], on: { 'import.again': { target: 'choosing', actions: 'reset' } } },
  },
});
