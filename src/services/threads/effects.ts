// The threads feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/threads/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const threads = () => import('./threads.effects');

export const threadsEffects = {
  threadPanel: later(threads, 'wireThreadPanel'),
  followedThreads: later(threads, 'wireFollowedThreads'),
} as const satisfies FeatureEffects;
