// The public face of the auth feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files. Its code loads with the sign-in and registration screens.
export { registrationModeMachine } from './machines/registrationMode/registrationMode.machine';
