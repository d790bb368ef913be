// Settings' card «Ключ восстановления» (docs/secret-chats.md "The recovery key"): what it is, and the dialog that
// sets it up, enters it or deletes it.
import { useState } from 'react';
import {
  RECOVERY_EXPLANATION,
  RECOVERY_TITLE,
} from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { RecoveryDialog } from './RecoveryDialog';

export function RecoverySection(props: { userId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card form settings-recovery" aria-labelledby="settings-recovery">
      <h2 className="form-title" id="settings-recovery">
        {RECOVERY_TITLE}
      </h2>
      <p className="form-hint">{RECOVERY_EXPLANATION}</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Настроить ключ восстановления
        </button>
      </div>
      {open && <RecoveryDialog userId={props.userId} mode="setup" onClose={() => setOpen(false)} />}
    </section>
  );
}
