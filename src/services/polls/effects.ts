// The polls feature's effects by registry line (its lines: src/machines/polls/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const polls = () => import('./polls.effects');

export const pollsEffects = {
  pollComposer: later(polls, 'wirePollComposer'),
  pollVotes: later(polls, 'wirePollVotes'),
} as const satisfies FeatureEffects;
