// The folders feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/folders/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const folders = () => import('./folders.effects');

export const foldersEffects = {
  folders: later(folders, 'wireFolders'),
} as const satisfies FeatureEffects;
