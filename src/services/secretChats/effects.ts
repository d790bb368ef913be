// The secretChats feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/secretChats/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const secretChatsRegister = () => import('./secretChats-register.effects');
const secretChats = () => import('./secretChats.effects');
/** The secret chats' dialogs and calls, one chunk apart from the device's. */
const secretDialogs = () => import('./secretChats-dialogs.effects');
const secretChatsRecovery = () => import('./secretChats-recovery.effects');
const secretChatsApproval = () => import('./secretChats-approval.effects');

export const secretChatsEffects = {
  secretRegistration: later(secretChatsRegister, 'wireSecretRegistration'),
  secretDevice: later(secretChats, 'wireSecretDevice'),
  secretDialog: later(secretDialogs, 'wireSecretDialog'),
  secretCall: later(secretDialogs, 'wireSecretCall'),
  secretRecovery: later(secretChatsRecovery, 'wireSecretRecovery'),
  secretVerify: later(secretDialogs, 'wireSecretVerify'),
  secretApproval: later(secretChatsApproval, 'wireSecretApproval'),
} as const satisfies FeatureEffects;
