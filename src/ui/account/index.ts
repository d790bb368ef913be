// The account feature's views other features may render.
export { AccountDeletionSection, DataExportSection, DevicesSection, PasswordSection } from './AccountSections';
export { SignInMethodsSection } from './SignInMethodsSection';
export { SecuritySection } from './SecuritySection';
