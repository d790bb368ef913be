// The chat folders' effects: the routes under /api/folders over the API client, and the tab chosen on this device
// (./folder-tab.ts).
import { fromPromise } from 'xstate';
import type { ChatFolderData, FolderDraft } from '../../contract/chat-folders';
import { type FoldersEffects, foldersMachine } from '../../machines/folders/folders/folders.machine';
import type { Services } from '../app/services';
import { readFolderTab, writeFolderTab } from './folder-tab';

export const wireFolders = (s: Services) =>
  foldersMachine.provide({
    actors: {
      loadFolders: fromPromise(async () => ({
        folders: (await s.api.call('folders')).folders,
        tab: readFolderTab(),
      })),
      saveFolder: fromPromise<ChatFolderData, { id: string | null; draft: FolderDraft }>(async ({ input }) =>
        input.id === null
          ? (await s.api.call('createFolder', { body: input.draft })).folder
          : (await s.api.call('updateFolder', { params: { id: input.id }, body: input.draft })).folder,
      ),
      deleteFolder: fromPromise<string, { id: string }>(async ({ input }) => {
        await s.api.call('deleteFolder', { params: { id: input.id } });
        return input.id;
      }),
      orderFolders: fromPromise<ChatFolderData[], { ids: string[] }>(
        async ({ input }) => (await s.api.call('reorderFolders', { body: { ids: input.ids } })).folders,
      ),
      storeTab: fromPromise<unknown, { id: string | null }>(async ({ input }) => writeFolderTab(input.id)),
    } satisfies FoldersEffects,
  });
