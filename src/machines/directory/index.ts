// The public face of the directory feature («Люди», «Открытые группы»): other features import only this module,
// src/ui/directory/index.ts (its views) and its *.protocol.ts files.
export { directoryMachine } from './directory/directory.machine';
