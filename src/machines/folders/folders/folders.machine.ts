// The chat folders' actor (protocol: folders.protocol.ts): loads one's folders and the tab this device chose, takes
// every list the server sends after a change on any device (and loads again after a reconnection, which may have
// missed one), keeps the chosen tab on this device, and runs the settings' changes one at a time: the dialog
// (create or edit) stays open with the reason when a save fails; a deletion or a move that fails keeps the list.
import { assertEvent, assign, setup, spawnChild } from 'xstate';
import { type ChatFolderData, folderDraftError } from '../../../contract/chat-folders';
import { failureMessage } from '../../../contract/failure';
import { listenToServer } from '../../realtime/index';
import { notWired } from '../../shared/not-wired';
import {
  FOLDER_CHANGE_FAILED,
  FOLDER_SAVE_FAILED,
  FOLDERS_LOAD_FAILED,
  FOLDERS_TAGS,
  type FoldersContext,
  type FoldersEffects,
  type FoldersEvent,
  movedFolders,
} from './folders.protocol';

export * from './folders.protocol';

export const foldersServerEvents = listenToServer<FoldersEvent>(
  { 'folders:updated': (p) => ({ type: 'folders.updated', folders: p.folders }) },
  { onConnected: () => ({ type: 'folders.refresh' }) },
);

const upsert = (folders: readonly ChatFolderData[], folder: ChatFolderData) =>
  folders.some((f) => f.id === folder.id)
    ? folders.map((f) => (f.id === folder.id ? folder : f))
    : [...folders, folder];

export const foldersMachine = setup({
  types: { context: {} as FoldersContext, events: {} as FoldersEvent },
  // Typed by the port its feature's services implement.
  actors: {
    serverEvents: foldersServerEvents,
    loadFolders: notWired('folders.loadFolders') as FoldersEffects['loadFolders'],
    saveFolder: notWired('folders.saveFolder') as FoldersEffects['saveFolder'],
    deleteFolder: notWired('folders.deleteFolder') as FoldersEffects['deleteFolder'],
    orderFolders: notWired('folders.orderFolders') as FoldersEffects['orderFolders'],
    storeTab: notWired('folders.storeTab') as FoldersEffects['storeTab'],
  },
  guards: {
    draftInvalid: ({ event }) => {
      assertEvent(event, 'folders.save');
      return folderDraftError(event.draft) !== null;
    },
    canMove: ({ context, event }) => {
      assertEvent(event, 'folders.move');
      const at = context.folders.findIndex((f) => f.id === event.id);
      return at >= 0 && at + event.by >= 0 && at + event.by < context.folders.length;
    },
  },
  actions: {
    takeList: assign((_, folders: ChatFolderData[]) => ({ folders })),
  },
}).createMachine({
  id: 'folders',
  context: { folders: [], loaded: false, active: null, editing: null, error: null },
  invoke: { id: 'serverEvents', src: 'serverEvents' },
  on: {
    'folders.updated': { actions: { type: 'takeList', params: ({ event }) => event.folders } },
    'folders.select': {
      actions: [
        assign({ active: ({ event }) => event.id }),
        spawnChild('storeTab', {
          input: ({ event }) => {
            assertEvent(event, 'folders.select');
            return { id: event.id };
          },
        }),
      ],
    },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: [FOLDERS_TAGS.busy],
      invoke: {
        id: 'loadFolders',
        src: 'loadFolders',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            folders: event.output.folders,
            active: event.output.tab,
            loaded: true,
            error: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FOLDERS_LOAD_FAILED) }),
        },
      },
      // A refresh while loading: what is loading may be older than it; start again.
      on: { 'folders.refresh': { target: 'loading', reenter: true } },
    },
    ready: {
      on: {
        'folders.refresh': 'loading',
        'folders.edit': { target: 'editing', actions: assign({ editing: ({ event }) => event.id, error: null }) },
        'folders.delete': 'deleting',
        'folders.move': { guard: 'canMove', target: 'moving' },
      },
    },
    editing: {
      tags: [FOLDERS_TAGS.dialog],
      on: {
        'folders.cancel': { target: 'ready', actions: assign({ editing: null, error: null }) },
        'folders.save': [
          {
            guard: 'draftInvalid',
            actions: assign({ error: ({ event }) => folderDraftError(event.draft) }),
          },
          { target: 'saving', actions: assign({ error: null }) },
        ],
      },
    },
    saving: {
      tags: [FOLDERS_TAGS.dialog, FOLDERS_TAGS.busy],
      invoke: {
        id: 'saveFolder',
        src: 'saveFolder',
        input: ({ context, event }) => {
          assertEvent(event, 'folders.save');
          return { id: context.editing, draft: event.draft };
        },
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({ folders: upsert(context.folders, event.output), editing: null })),
        },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FOLDER_SAVE_FAILED) }),
        },
      },
    },
    deleting: {
      tags: [FOLDERS_TAGS.busy],
      invoke: {
        id: 'deleteFolder',
        src: 'deleteFolder',
        input: ({ event }) => {
          assertEvent(event, 'folders.delete');
          return { id: event.id };
        },
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            folders: context.folders.filter((f) => f.id !== event.output),
            error: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FOLDER_CHANGE_FAILED) }),
        },
      },
    },
    moving: {
      tags: [FOLDERS_TAGS.busy],
      invoke: {
        id: 'orderFolders',
        src: 'orderFolders',
        input: ({ context, event }) => {
          assertEvent(event, 'folders.move');
          return { ids: movedFolders(context.folders, event.id, event.by).map((f) => f.id) };
        },
        onDone: {
          target: 'ready',
          actions: [{ type: 'takeList', params: ({ event }) => event.output }, assign({ error: null })],
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => failureMessage(event.error, FOLDER_CHANGE_FAILED) }),
        },
      },
    },
  },
});
