// The public face of the blocking feature: other features import only this module, src/ui/blocking/index.ts (its views) and its
// *.protocol.ts files.
export { blockingMachine } from './blocking/blocking.machine';
