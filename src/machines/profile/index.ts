// The public face of the profile feature: other features import only this module, src/ui/profile/index.ts (its views) and its
// *.protocol.ts files.
export { profileMachine } from './profile/profile.machine';
export type { ProfileFields } from './profile/profile.protocol';
// The avatar editor's machine loads later (avatar-wiring.ts): not re-exported here, or the first bundle, which loads
// this index, would carry it.
