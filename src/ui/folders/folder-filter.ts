// Which chats a folder shows (docs/behaviour.md §10.47), as a pure function of the chat list's own tiles: the chats
// list view filters by the chosen tab with it and the tabs count their unread chats with it. The chats actor knows
// nothing of folders.
//
// A chat is in a folder when the folder names it as included, or when the folder has rules and the chat meets them:
// of «Личные» and «Группы» it must be a chosen kind (either, when neither is chosen), and it must meet every other
// chosen rule («Непрочитанные»: something unread or marked unread; «Без звука»: muted). A chat the folder excludes
// is never in it. «Избранное» is no one's personal chat: only naming it puts it in a folder.
import type { ChatFolderData } from '../../contract/chat-folders';

/** What of a chat's tile the rules read (ChatTileView has it all). */
export interface FolderChat {
  id: string;
  unread: number;
  isGroup?: boolean;
  saved?: boolean;
  muted?: boolean;
  markedUnread?: boolean;
}

export function inFolder(folder: ChatFolderData, chat: FolderChat): boolean {
  if (folder.excludedIds.includes(chat.id)) return false;
  if (folder.includedIds.includes(chat.id)) return true;
  const { direct, groups, unread, muted } = folder.rules;
  if (!(direct || groups || unread || muted) || chat.saved) return false;
  const group = chat.isGroup === true;
  if ((direct || groups) && !(group ? groups : direct)) return false;
  if (unread && !(chat.unread > 0 || chat.markedUnread)) return false;
  return !muted || chat.muted === true;
}

/** The chats the tab shows: all of them for «Все чаты» (null), in the list's order. */
export function folderChats<T extends FolderChat>(chats: readonly T[], folder: ChatFolderData | null): readonly T[] {
  return folder ? chats.filter((c) => inFolder(folder, c)) : chats;
}

/** The tab's count: its chats with something unread. */
export function unreadChats(chats: readonly FolderChat[], folder: ChatFolderData | null): number {
  return folderChats(chats, folder).filter((c) => c.unread > 0 || c.markedUnread).length;
}
