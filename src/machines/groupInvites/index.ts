// The public face of the group invites feature: other features import only this module, src/ui/groupInvites/index.ts (its views) and
// its *.protocol.ts files.
export { groupInvitesMachine } from './groupInvites/groupInvites.machine';
export { joinGroupMachine } from './joinGroup/joinGroup.machine';
