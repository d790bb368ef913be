// The public face of the session feature (who is signed in, sign-outs, the offline store): other features import
// only this module and its *.protocol.ts files.

export { offlineStoreMachine } from './offlineStore/offlineStore.machine';
export { sessionMachine } from './session/session.machine';
export { watchSignedInUser } from './session/watch-signed-in-user';
export { signOutQueueMachine } from './signOutQueue/signOutQueue.machine';
