// The public face of the folders feature: other features import only this module, src/ui/folders/index.ts (its
// views) and its *.protocol.ts files.
export { foldersMachine } from './folders/folders.machine';
