// The public face of the invite codes: other features import only this module, src/ui/inviteCodes/index.ts (its views) and its
// *.protocol.ts files. Its code loads with the view that shows the codes.
export { inviteCodesMachine } from './inviteCodes/inviteCodes.machine';
