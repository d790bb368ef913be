// The threads feature's effects by registry line (its lines: src/machines/threads/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const threads = () => import('./threads.effects');

export const threadsEffects = {
  threadPanel: later(threads, 'wireThreadPanel'),
  followedThreads: later(threads, 'wireFollowedThreads'),
} as const satisfies FeatureEffects;
