// The send preview actor (alive while the pane that calls this is mounted) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import type { PickedFile } from '../../machines/composer/sendPreview/sendPreview.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: PickedFile[] = [];

/** `id`: the conversation pane's preview, or the thread panel's (both can be on screen). */
export function useSendPreview(id: 'sendPreview' | 'threadSendPreview' = 'sendPreview') {
  // Files picked before its code is here (a quick user, a slow phone) reach it as it starts.
  const actor = useOwnedActor(id);
  return {
    // The dialog opens with the actor's first state that has them: never half-working before it exists.
    open: useSelector(actor, (s) => s?.hasTag('open') ?? false),
    files: useSelector(actor, (s) => s?.context.files ?? NONE),
    caption: useSelector(actor, (s) => s?.context.caption ?? ''),
    add: (files: PickedFile[]) => actor.send({ type: 'preview.add', files }),
    remove: (index: number) => actor.send({ type: 'preview.remove', index }),
    move: (index: number, by: -1 | 1) => actor.send({ type: 'preview.move', index, by }),
    setCaption: (text: string) => actor.send({ type: 'preview.caption', text }),
    cancel: () => actor.send({ type: 'preview.cancel' }),
    sent: () => actor.send({ type: 'preview.sent' }),
  };
}

export type SendPreviewView = ReturnType<typeof useSendPreview>;
