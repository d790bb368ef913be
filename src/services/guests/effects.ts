// The guests feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/guests/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const guests = () => import('./guests.effects');

export const guestsEffects = {
  guestPage: later(guests, 'wireGuestPage'),
  guestDoor: later(guests, 'wireGuestDoor'),
  guestLinks: later(guests, 'wireGuestLinks'),
} as const satisfies FeatureEffects;
