// The send preview actor (alive while the pane that calls this is mounted) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { PickedFile } from '../../machines/composer/sendPreview/sendPreview.protocol';

const NONE: PickedFile[] = [];

export function useSendPreview() {
  const actor = useOwnedActor('sendPreview');
  return {
    open: useSelector(actor, (s) => s?.hasTag('open') ?? false),
    files: useSelector(actor, (s) => s?.context.files ?? NONE),
    caption: useSelector(actor, (s) => s?.context.caption ?? ''),
    add: (files: PickedFile[]) => actor?.send({ type: 'preview.add', files }),
    remove: (index: number) => actor?.send({ type: 'preview.remove', index }),
    move: (index: number, by: -1 | 1) => actor?.send({ type: 'preview.move', index, by }),
    setCaption: (text: string) => actor?.send({ type: 'preview.caption', text }),
    cancel: () => actor?.send({ type: 'preview.cancel' }),
    sent: () => actor?.send({ type: 'preview.sent' }),
  };
}

export type SendPreviewView = ReturnType<typeof useSendPreview>;
