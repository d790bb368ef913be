// The public face of the profile feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { avatarMachine } from './machines/avatar/avatar.machine';
export { profileMachine } from './machines/profile/profile.machine';
export type { ProfileFields } from './machines/profile/profile.protocol';
