// The way into «Импорт истории»: a button in a chat's «Информация» (owner and admins of a group, either person of a
// direct chat) and in Settings (into a new group). The dialog's code loads when the button is first pressed.
import { useState } from 'react';
import type { ImportCandidate } from '../../machines/historyImport/historyImport/historyImport.protocol';
import { lazyView } from '../shared/lazy-view';
import type { HistoryImportDialogProps } from './HistoryImportDialog';

const LazyHistoryImportDialog = lazyView<HistoryImportDialogProps>(() =>
  import('./HistoryImportDialog').then((m) => m.HistoryImportDialog),
);

export interface HistoryImportEntryProps {
  /** The chat it goes into; null: a new group. */
  conversationId: string | null;
  secret: boolean;
  userId: string;
  candidates: ImportCandidate[];
  /** The button's look: a section's main action or a quiet one among others. */
  className?: string;
}

export function HistoryImportEntry(props: HistoryImportEntryProps) {
  const [open, setOpen] = useState(false);
  const { className, ...input } = props;
  return (
    <>
      <button
        type="button"
        className={className ?? 'button ghost'}
        onClick={() => setOpen(true)}
        onPointerEnter={() => void LazyHistoryImportDialog.preload()}
      >
        Импорт истории
      </button>
      {open && <LazyHistoryImportDialog {...input} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Settings: «Импорт истории» into a new group named after the exported chat. */
export function HistoryImportSection(props: { userId: string; name: string }) {
  return (
    <section className="card form" aria-labelledby="settings-import">
      <h2 className="form-title" id="settings-import">
        Импорт истории
      </h2>
      <p className="form-hint">
        Перенесите переписку из Telegram или WhatsApp в новую группу с названием чата. Сообщения сохранят время и
        порядок, и их сразу можно искать.
      </p>
      <HistoryImportEntry
        conversationId={null}
        secret={false}
        userId={props.userId}
        candidates={[{ userId: props.userId, name: props.name }]}
        className="button"
      />
    </section>
  );
}
