// The public face of the search feature: other features import only this module, src/ui/search/index.ts (its views) and its
// *.protocol.ts files.
export { searchMachine } from './search/search.machine';
