// «Ввести ключ восстановления» under a secret message this device cannot read: the dialog that restores the
// history from the recovery key's backup. The dialog stays open once the message becomes readable (the restore
// worked): it says so until closed.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { ENTER_RECOVERY_KEY } from '../../machines/secretChats/secretRecovery/secretRecovery.protocol';
import { RecoveryDialog } from './RecoveryDialog';
import { useSecretDeviceRef } from './useSecretDeviceRef';
import './recover-button.css';

export function RecoverButton(props: { show: boolean }) {
  const userId = useSelector(useSecretDeviceRef(), (s) => s?.context.userId ?? null);
  const [open, setOpen] = useState(false);
  if (!userId) return null;
  return (
    <>
      {props.show && (
        <button type="button" className="button ghost small msg-secret-recover" onClick={() => setOpen(true)}>
          {ENTER_RECOVERY_KEY}
        </button>
      )}
      {open && <RecoveryDialog userId={userId} mode="restore" onClose={() => setOpen(false)} />}
    </>
  );
}
