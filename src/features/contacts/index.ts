// The public face of the contacts feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { contactCodeMachine } from './machines/contactCode/contactCode.machine';
export { contactsTileSubtitle, filterContacts } from './machines/contacts/contact-list';
export { contactsMachine } from './machines/contacts/contacts.machine';
export { groupDialogMachine } from './machines/groupDialog/groupDialog.machine';
