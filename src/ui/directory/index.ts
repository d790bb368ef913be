// The views of the directory feature that other features render: «Люди» and «Открытые группы» on the contacts page,
// and «Люди» in the dialogs that make a chat. Loaded with the view that shows them.
import { lazyView } from '../shared/lazy-view';
import type { DirectoryPickerProps } from './DirectoryPicker';
import type { DirectorySectionProps } from './DirectorySection';

export type { DirectoryPickerProps } from './DirectoryPicker';
export type { DirectorySectionProps } from './DirectorySection';
/** The directory's people for a view that lists them its own way («Переслать»). */
export { useDirectory } from './useDirectory';

export const LazyDirectorySection = lazyView<DirectorySectionProps>(() =>
  import('./DirectorySection').then((m) => m.DirectorySection),
);
export const LazyDirectoryPicker = lazyView<DirectoryPickerProps>(() =>
  import('./DirectoryPicker').then((m) => m.DirectoryPicker),
);
