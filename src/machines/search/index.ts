// The public face of the search feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { searchMachine } from './search/search.machine';
