// The emoji picker's code and styles come when it is first opened.
import type { EmojiPickerProps } from './EmojiPicker';
import { lazyView } from './lazy-view';

export const LazyEmojiPicker = lazyView<EmojiPickerProps>(() => import('./EmojiPicker').then((m) => m.EmojiPicker));
