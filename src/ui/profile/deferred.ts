// The profile feature's views that only code loading after the first paint renders (the conversation pane and its
// parts): apart from index.ts on purpose, which the first bundle loads, so their loaders are not in it.
import { lazyView } from '../shared/lazy-view';

/** A group's picture editor («Изменить фото» in «Информация»), with the crop editor's chunk. */
export const LazyGroupPicture = lazyView<{ conversationId: string }>(() =>
  import('./GroupPicture').then((m) => m.GroupPicture),
);

/** Settings' «Статус с эмодзи» (the settings page's own chunk); the dialog it opens loads when first opened. */
export { CustomStatusSection } from './CustomStatusSection';
