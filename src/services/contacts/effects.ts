// The contacts feature's effects, one entry per registry line whose machine needs services (its lines:
// src/machines/contacts/actors.ts).
// An eager entry's code is in the first bundle; a later one's module is fetched with its line's code
// (src/services/app/effects.ts).
import { type FeatureEffects, later } from '../app/effects';
import { wireContacts } from './contacts.effects';

const contactsDialog = () => import('./contacts-dialog.effects');
const memberCard = () => import('./memberCard.effects');

export const contactsEffects = {
  contacts: { wire: wireContacts },
  contactCode: later(contactsDialog, 'wireContactCode'),
  groupDialog: later(contactsDialog, 'wireGroupDialog'),
  memberCard: later(memberCard, 'wireMemberCard'),
  memberWrite: later(memberCard, 'wireMemberCard'),
} as const satisfies FeatureEffects;
