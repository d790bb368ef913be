// The folders feature's views that only code loading after the first paint renders: apart from index.ts on purpose,
// which the first bundle loads, so they are not in it.

/** Settings' «Папки» (the settings page's own chunk). */
export { FoldersSection } from './FoldersSection';
