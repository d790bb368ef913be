// An imported message in the timeline (docs/behaviour.md §10.39): an author the importer matched to nobody here keeps
// the export's name, shown as «Ольга (из Telegram)» in the nominative, never declined. The divider after the imported
// history is the server's own service line.
import { importedAuthorText } from '../../contract/history-import/texts';
import type { ImportSource } from '../../contract/history-import/types';

/** What a message says of its import, when it was imported (fields absent otherwise). */
export interface ImportedFields {
  importedFrom?: ImportSource;
  importedAuthor?: string;
}

/** «Ольга (из Telegram)» for an unmatched imported author; null for everyone else (their own name is shown). */
export function importedSenderName(m: ImportedFields & { id: string }): string | null {
  if (!m.importedAuthor) return null;
  return m.importedFrom ? importedAuthorText(m.importedAuthor, m.importedFrom) : m.importedAuthor;
}
