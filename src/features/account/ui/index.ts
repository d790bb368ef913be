// The account feature's views other features may render.
export { DevicesSection, PasswordSection } from './AccountSections';
