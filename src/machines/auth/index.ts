// The public face of the auth feature: other features import only this module, src/ui/auth/index.ts (its views) and its
// *.protocol.ts files. Its code loads with the sign-in and registration screens and the password-reset page.
export { registrationModeMachine } from './registrationMode/registrationMode.machine';
export { passwordResetMachine } from './passwordReset/passwordReset.machine';
export { oidcSignInMachine } from './oidcSignIn/oidcSignIn.machine';
export { passkeySignInMachine } from './passkeySignIn/passkeySignIn.machine';
