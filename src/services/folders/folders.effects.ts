// The chat folders' effects: the routes under /api/folders over the API client, and the tab chosen on this device in
// localStorage (not synced: each device keeps its own, docs/behaviour.md §10.47).
import { fromPromise } from 'xstate';
import type { ChatFolderData, FolderDraft } from '../../contract/chat-folders';
import { type FoldersEffects, foldersMachine } from '../../machines/folders/folders/folders.machine';
import type { Services } from '../app/services';

export const FOLDER_TAB_KEY = 'beseda.folderTab';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const wireFolders = (s: Services) =>
  foldersMachine.provide({
    actors: {
      loadFolders: fromPromise(async () => ({
        folders: (await s.api.call('folders')).folders,
        tab: storage()?.getItem(FOLDER_TAB_KEY) ?? null,
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
      storeTab: fromPromise<unknown, { id: string | null }>(async ({ input }) => {
        try {
          if (input.id === null) storage()?.removeItem(FOLDER_TAB_KEY);
          else storage()?.setItem(FOLDER_TAB_KEY, input.id);
        } catch {
          /* storage full or off: the choice lasts this page view */
        }
      }),
    } satisfies FoldersEffects,
  });
