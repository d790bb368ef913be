// The messageActions feature's effects by registry line (its lines: src/machines/messageActions/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireRemoval } from './messageActions.effects';

const messageActionsDialog = () => import('./messageActions-dialog.effects');

export const messageActionsEffects = {
  removal: { wire: wireRemoval },
  selection: later(messageActionsDialog, 'wireSelection'),
  forwardPicker: later(messageActionsDialog, 'wireForwardPicker'),
  messageInfo: later(messageActionsDialog, 'wireMessageInfo'),
} as const satisfies FeatureEffects;
