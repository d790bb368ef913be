// The account feature's views other features may render.
export { AccountDeletionSection, DevicesSection, PasswordSection } from './AccountSections';
