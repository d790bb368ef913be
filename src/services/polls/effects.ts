// The polls feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/polls/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const polls = () => import('./polls.effects');

export const pollsEffects = {
  pollComposer: later(polls, 'wirePollComposer'),
  pollVotes: later(polls, 'wirePollVotes'),
} as const satisfies FeatureEffects;
