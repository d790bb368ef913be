// The «Статус» dialog's actor (alive while the dialog is open) as plain values and callbacks; `onDone` closes the
// dialog once the status is saved or cleared.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ClearAfter } from '../../contract/custom-status';
import type { CustomStatus } from '../../contract/entities';
import { CUSTOM_STATUS_TAGS } from '../../machines/profile/customStatus/customStatus.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export function useCustomStatus(current: CustomStatus | null, onDone: () => void) {
  const actor = useOwnedActor('customStatus', { current });
  const done = useSelector(actor, (s) => s?.hasTag(CUSTOM_STATUS_TAGS.done) ?? false);
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
  return {
    hasCurrent: current !== null,
    emoji: useSelector(actor, (s) => s?.context.emoji ?? current?.emoji ?? ''),
    text: useSelector(actor, (s) => s?.context.text ?? current?.text ?? ''),
    clearAfter: useSelector(actor, (s) => s?.context.clearAfter ?? 'today'),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    // Busy too until the actor is here (its code loads on demand).
    busy: useSelector(actor, (s) => s?.hasTag(CUSTOM_STATUS_TAGS.busy) ?? true),
    onEmoji: (emoji: string) => actor.send({ type: 'customStatus.emojiChosen', emoji }),
    onText: (text: string) => actor.send({ type: 'customStatus.textChanged', text }),
    onClearAfter: (clearAfter: ClearAfter) => actor.send({ type: 'customStatus.clearAfterChosen', clearAfter }),
    onSave: () => actor.send({ type: 'customStatus.save' }),
    onClear: () => actor.send({ type: 'customStatus.clear' }),
  };
}
export type CustomStatusDialogView = ReturnType<typeof useCustomStatus>;
