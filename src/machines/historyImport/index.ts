// The public face of the historyImport feature («Импорт истории»): other features import only this module,
// src/ui/historyImport/index.ts (its views) and its *.protocol.ts files.
export { historyImportMachine } from './historyImport/historyImport.machine';
