// The «История изменений» dialog's hook: its actor (editHistory, alive while the dialog is open) as plain props, and
// a new edit of the message while it is open (its text changed) asks again.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';

export function useEditHistory(messageId: string, text: string | null) {
  const actor = useOwnedActor('editHistory', { messageId });
  const versions = useSelector(actor, (s) => s?.context.versions ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const shown = useRef(text);
  useEffect(() => {
    if (shown.current === text) return;
    shown.current = text;
    actor.send({ type: 'editHistory.edited' });
  }, [actor, text]);
  return { versions, error, onRetry: () => actor.send({ type: 'editHistory.retry' }) };
}
