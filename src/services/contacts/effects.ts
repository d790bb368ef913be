// The contacts feature's effects by registry line (its lines: src/machines/contacts/actors.ts): the eager ones are in the
// first bundle, each later one's module is fetched with its line's code (src/services/app/effects.ts).
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
