// The chat list under its folder tabs (docs/behaviour.md §10.47): «Все чаты» first, then one's folders in their
// order, each with the number of its chats with something unread; the list shows the chosen tab's chats
// (folder-filter.ts). Rendered only while there are folders, from a chunk of its own.
import { useSelector } from '@xstate/react';
import { type ReactNode, useMemo } from 'react';
import type { ChatFolderData } from '../../contract/chat-folders';
import type { OwnedRef } from '../app/useOwnedActor';
import type { FoldersRef } from '../../machines/folders/folders/folders.protocol';
import { type FolderChat, folderChats, unreadChats } from './folder-filter';
import { FolderTabs } from './FolderTabs';

export interface FolderListProps<T extends FolderChat> {
  folders: OwnedRef<FoldersRef>;
  /** The list's tiles, all of them. */
  tiles: T[];
  /** The list itself with the chosen tab's tiles, and the tabs to show above them. */
  render(tiles: T[], tabs: ReactNode): ReactNode;
}

const NONE: ChatFolderData[] = [];

export function FolderList<T extends FolderChat>(props: FolderListProps<T>) {
  const folders = useSelector(props.folders, (s) => s?.context.folders ?? NONE);
  const chosen = useSelector(props.folders, (s) => s?.context.active ?? null);
  const active = folders.find((f) => f.id === chosen) ?? null;
  const tabs = useMemo(
    () => [
      { id: null, name: 'Все чаты', unread: unreadChats(props.tiles, null) },
      ...folders.map((f) => ({ id: f.id, name: f.name, unread: unreadChats(props.tiles, f) })),
    ],
    [folders, props.tiles],
  );
  const shown = useMemo(() => folderChats(props.tiles, active) as T[], [props.tiles, active]);
  return props.render(
    shown,
    <FolderTabs
      tabs={tabs}
      active={active?.id ?? null}
      onSelect={(id) => props.folders.send({ type: 'folders.select', id })}
    />,
  );
}
