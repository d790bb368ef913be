// The calls feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/calls/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const call = () => import('./calls.effects');
const callsPage = () => import('./calls-page.effects');
const callRoom = () => import('./call-room.effects');

export const callsEffects = {
  call: later(call, 'wireCall'),
  callsPage: later(callsPage, 'wireCallsPage'),
  callRoom: later(callRoom, 'wireCallRoom'),
} as const satisfies FeatureEffects;
