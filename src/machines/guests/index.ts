// The public face of the guests feature: other features import only this module, src/ui/guests/index.ts (its views)
// and its *.protocol.ts files.
export { guestPageMachine } from './guestPage/guestPage.machine';
export { guestDoorMachine } from './guestDoor/guestDoor.machine';
export { guestLinksMachine } from './guestLinks/guestLinks.machine';
