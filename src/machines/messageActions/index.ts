// The public face of the message actions feature (removal with undo, forwarding, message info): other features
// import only this module, src/ui/messageActions/index.ts (its views) and its *.protocol.ts files.
export { removalMachine } from './removal/removal.machine';
