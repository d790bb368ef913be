// The secretChats feature's effects by registry line (its lines: src/machines/secretChats/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';

const secretChatsRegister = () => import('./secretChats-register.effects');
const secretChats = () => import('./secretChats.effects');
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
