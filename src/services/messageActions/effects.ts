// The messageActions feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/messageActions/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const removal = () => import('./messageActions.effects');
const messageActionsDialog = () => import('./messageActions-dialog.effects');

export const messageActionsEffects = {
  removal: later(removal, 'wireRemoval'),
  selection: later(messageActionsDialog, 'wireSelection'),
  forwardPicker: later(messageActionsDialog, 'wireForwardPicker'),
  messageInfo: later(messageActionsDialog, 'wireMessageInfo'),
  editHistory: later(messageActionsDialog, 'wireEditHistory'),
} as const satisfies FeatureEffects;
