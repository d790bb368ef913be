// The public face of the account feature (sign-ins and password): other features import only this module,
// ui/index.ts (its views) and its *.protocol.ts files.
export { accountDeletionMachine } from './machines/accountDeletion/accountDeletion.machine';
export { dataExportMachine } from './machines/dataExport/dataExport.machine';
export { devicesMachine } from './machines/devices/devices.machine';
export { passwordMachine } from './machines/passwordChange/passwordChange.machine';
