// The public face of the contacts feature: other features import only this module, src/ui/contacts/index.ts (its views) and its
// *.protocol.ts files.
export { contactsTileSubtitle, filterContacts } from './contacts/contact-list';
export { contactsMachine } from './contacts/contacts.machine';
// The EBLID search's and the group dialog's machines load later (dialog-wiring.ts): not re-exported here, or the
// first bundle, which loads this index, would carry them.
