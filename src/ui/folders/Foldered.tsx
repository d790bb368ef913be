// The chat list with folder tabs above it, as the first screen holds it: the folders actor (alive while the list is
// shown) and, only once it has folders, the tabs and the filtering from a chunk of their own (FolderList.tsx). With
// no folders the list is rendered as it always was.
import { useSelector } from '@xstate/react';
import { type ReactNode, Suspense } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import { lazyView } from '../shared/lazy-view';
import type { FolderChat } from './folder-filter';
import type { FolderListProps } from './FolderList';

const LazyFolderList = lazyView<FolderListProps<FolderChat>>(() => import('./FolderList').then((m) => m.FolderList));

export interface FolderedProps<T extends FolderChat> {
  tiles: T[];
  /** The list with these tiles, and the tabs above them (none without folders). */
  render(tiles: T[], tabs?: ReactNode): ReactNode;
}

export function Foldered<T extends FolderChat>(props: FolderedProps<T>) {
  const folders = useOwnedActor('folders');
  return useSelector(folders, (s) => s?.context.folders.length) ? (
    <Suspense fallback={props.render(props.tiles)}>
      <LazyFolderList {...(props as FolderedProps<FolderChat>)} folders={folders} />
    </Suspense>
  ) : (
    props.render(props.tiles)
  );
}
