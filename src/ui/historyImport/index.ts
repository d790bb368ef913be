// The views of «Импорт истории» that other features render; the dialog itself loads on first use.
export { HistoryImportEntry, type HistoryImportEntryProps, HistoryImportSection } from './HistoryImportEntry';
export { importedSenderName } from './imported';
