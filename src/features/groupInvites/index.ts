// The public face of the group invites feature: other features import only this module, ui/index.ts (its views) and
// its *.protocol.ts files.
export { groupInvitesMachine } from './machines/groupInvites/groupInvites.machine';
export { joinGroupMachine } from './machines/joinGroup/joinGroup.machine';
