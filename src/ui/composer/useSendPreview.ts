// The send preview actor (alive while the pane that calls this is mounted) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { PickedFile } from '../../machines/composer/sendPreview/sendPreview.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: PickedFile[] = [];

/**
 * The actor is undefined until the root has spawned it, which waits for the conversation's machines' code: files
 * picked meanwhile (a quick user, a slow phone) are kept and handed over when it comes, not dropped.
 */
/** `id`: the conversation pane's preview, or the thread panel's (both can be on screen). */
export function useSendPreview(id: 'sendPreview' | 'threadSendPreview' = 'sendPreview') {
  const actor = useOwnedActor(id);
  const [early, setEarly] = useState<PickedFile[]>(NONE);
  useEffect(() => {
    if (!actor || early.length === 0) return;
    actor.send({ type: 'preview.add', files: early });
    setEarly(NONE);
  }, [actor, early]);
  return {
    // The dialog opens with the actor's first state that has them: never half-working before it exists.
    open: useSelector(actor, (s) => s?.hasTag('open') ?? false),
    files: useSelector(actor, (s) => s?.context.files ?? NONE),
    caption: useSelector(actor, (s) => s?.context.caption ?? ''),
    add: (picked: PickedFile[]) =>
      actor ? actor.send({ type: 'preview.add', files: picked }) : setEarly((kept) => [...kept, ...picked]),
    remove: (index: number) => actor?.send({ type: 'preview.remove', index }),
    move: (index: number, by: -1 | 1) => actor?.send({ type: 'preview.move', index, by }),
    setCaption: (text: string) => actor?.send({ type: 'preview.caption', text }),
    cancel: () => actor?.send({ type: 'preview.cancel' }),
    sent: () => actor?.send({ type: 'preview.sent' }),
  };
}

export type SendPreviewView = ReturnType<typeof useSendPreview>;
