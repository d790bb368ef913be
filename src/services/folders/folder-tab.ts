// The folder tab chosen on this device (docs/behaviour.md §10.47), in localStorage: not synced, and gone at sign-out
// with the rest of what the browser keeps for the user (services.ts `offline.clear`).
export const FOLDER_TAB_KEY = 'beseda.folderTab';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const readFolderTab = (): string | null => storage()?.getItem(FOLDER_TAB_KEY) ?? null;

/** Stores the tab (null: «Все чаты»); storage full or off leaves the choice to this page view. */
export function writeFolderTab(id: string | null): void {
  try {
    if (id === null) storage()?.removeItem(FOLDER_TAB_KEY);
    else storage()?.setItem(FOLDER_TAB_KEY, id);
  } catch {
    /* the choice lasts this page view */
  }
}
