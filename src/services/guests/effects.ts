// The guests feature's effects by registry line (its lines: src/machines/guests/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const guests = () => import('./guests.effects');

export const guestsEffects = {
  guestPage: later(guests, 'wireGuestPage'),
  guestDoor: later(guests, 'wireGuestDoor'),
  guestLinks: later(guests, 'wireGuestLinks'),
} as const satisfies FeatureEffects;
