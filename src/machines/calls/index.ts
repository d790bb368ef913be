// The public face of the calls feature: other features import only this module, src/ui/calls/index.ts (its views) and its
// *.protocol.ts files.
export { callMachine } from './call/call.machine';
