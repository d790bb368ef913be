import { useMachine } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { type LightboxItem, lightboxMachine, lightboxView } from '../machines/lightbox/lightbox.machine';

/**
 * The lightbox's state lives in its own actor, run here for as long as the lightbox is mounted: which image and
 * which zoom are view-local (nothing else reads them, nothing survives closing), so it is not spawned by the chats
 * actor. The caller decides whether it is open and which image it opens on; closing reaches it through onClose.
 */
export function useLightbox(props: { items: LightboxItem[]; index: number; onClose(): void }) {
  const [snapshot, send] = useMachine(lightboxMachine, { input: { items: props.items, index: props.index } });
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  const done = snapshot.status === 'done';
  useEffect(() => {
    if (done) onClose.current();
  }, [done]);
  return {
    ...lightboxView(snapshot.context),
    next: () => send({ type: 'lightbox.next' }),
    previous: () => send({ type: 'lightbox.previous' }),
    zoomIn: () => send({ type: 'lightbox.zoomIn' }),
    zoomOut: () => send({ type: 'lightbox.zoomOut' }),
    zoomReset: () => send({ type: 'lightbox.zoomReset' }),
    close: () => send({ type: 'lightbox.close' }),
  };
}
