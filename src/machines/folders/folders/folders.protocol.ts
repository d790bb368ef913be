// Chat folders («Папки», docs/behaviour.md §10.47): one's own folders, loaded as the chat list or Settings shows
// them and followed live (folders:updated from any device of the person), the tab chosen on this device, and the
// settings' changes (create, edit, delete, move). Views import this module, never folders.machine.ts.
import type { PromiseActorLogic } from 'xstate';
import type { ChatFolderData, FolderDraft } from '../../../contract/chat-folders';
import type { MachineRef } from '../../shared/machine-ref';

export const FOLDERS_LOAD_FAILED = 'Не удалось загрузить папки';
export const FOLDER_SAVE_FAILED = 'Не удалось сохранить папку. Попробуйте ещё раз.';
export const FOLDER_CHANGE_FAILED = 'Не удалось изменить папки. Попробуйте ещё раз.';

export interface FoldersContext {
  folders: ChatFolderData[];
  loaded: boolean;
  /** The tab chosen on this device: a folder's id, null for «Все чаты». */
  active: string | null;
  /** The folder the dialog edits: its id, null for a new one (while the dialog is open). */
  editing: string | null;
  error: string | null;
}

export type FoldersEvent =
  | { type: 'folders.refresh' }
  | { type: 'folders.updated'; folders: ChatFolderData[] }
  | { type: 'folders.select'; id: string | null }
  /** Opens the dialog: a folder's id to edit it, null for a new one. */
  | { type: 'folders.edit'; id: string | null }
  | { type: 'folders.cancel' }
  | { type: 'folders.save'; draft: FolderDraft }
  | { type: 'folders.delete'; id: string }
  | { type: 'folders.move'; id: string; by: -1 | 1 };

export const FOLDERS_TAGS = { busy: 'busy', dialog: 'dialog' } as const;

/** The list with one folder moved by one place (unchanged at either end). */
export function movedFolders(folders: readonly ChatFolderData[], id: string, by: -1 | 1): ChatFolderData[] {
  const from = folders.findIndex((f) => f.id === id);
  const to = from + by;
  const list = [...folders];
  if (from < 0 || to < 0 || to >= list.length) return list;
  [list[from], list[to]] = [list[to] as ChatFolderData, list[from] as ChatFolderData];
  return list;
}

export type FoldersRef = MachineRef<FoldersContext, FoldersEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/folders/folders.effects.ts). */
export interface FoldersEffects {
  /** GET /api/folders, with the tab this device chose last. */
  loadFolders: PromiseActorLogic<{ folders: ChatFolderData[]; tab: string | null }, unknown>;
  /** POST /api/folders (id null) or PATCH /api/folders/:id: the folder as saved. */
  saveFolder: PromiseActorLogic<ChatFolderData, { id: string | null; draft: FolderDraft }>;
  /** DELETE /api/folders/:id: the id of the folder deleted. */
  deleteFolder: PromiseActorLogic<string, { id: string }>;
  /** POST /api/folders/order: the list in its new order. */
  orderFolders: PromiseActorLogic<ChatFolderData[], { ids: string[] }>;
  /** Keeps the chosen tab on this device. */
  storeTab: PromiseActorLogic<unknown, { id: string | null }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** Chat folders (spawned while the chat list or the settings' «Папки» is shown). */
    folders: FoldersRef;
  }
}
