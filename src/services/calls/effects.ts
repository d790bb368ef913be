// The calls feature's effects by registry line (its lines: src/machines/calls/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireCall } from './calls.effects';

const callsPage = () => import('./calls-page.effects');

export const callsEffects = {
  call: { wire: wireCall },
  callsPage: later(callsPage, 'wireCallsPage'),
} as const satisfies FeatureEffects;
