// The public face of the account feature (sign-ins and password): other features import only this module,
// src/ui/account/index.ts (its views) and its *.protocol.ts files.
export { accountDeletionMachine } from './accountDeletion/accountDeletion.machine';
export { dataExportMachine } from './dataExport/dataExport.machine';
export { devicesMachine } from './devices/devices.machine';
export { passkeysMachine } from './passkeys/passkeys.machine';
export { passwordMachine } from './passwordChange/passwordChange.machine';
export { signInMethodsMachine } from './signInMethods/signInMethods.machine';
export { twoFactorMachine } from './twoFactor/twoFactor.machine';
