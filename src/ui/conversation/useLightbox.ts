import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import {
  type LightboxContext,
  type LightboxEvent,
  type LightboxItem,
  lightboxView,
} from '../../machines/conversation/lightbox/lightbox.protocol';

/**
 * The lightbox's state lives in its own actor, alive for as long as the lightbox is mounted (useOwnedActor):
 * which image and which zoom are view-local (nothing else reads them, nothing survives closing), so it is not the
 * chats actor's. The caller decides whether it is open and which image it opens on; closing reaches it through
 * onClose.
 */
export function useLightbox(props: { items: LightboxItem[]; index: number; onClose(): void }) {
  const actor = useOwnedActor('lightbox', { items: props.items, index: props.index });
  const opening: LightboxContext = { items: props.items, index: props.index, zoom: 1 };
  const context = useSelector(actor, (s) => s?.context) ?? opening;
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  // The actor finishes on close: tell the caller once.
  useEffect(() => {
    let told = false;
    const tell = () => {
      if (told) return;
      told = true;
      onClose.current();
    };
    if (actor.getSnapshot()?.status === 'done') tell();
    const sub = actor.subscribe({ next: (s) => s.status === 'done' && tell(), complete: tell });
    return () => sub.unsubscribe();
  }, [actor]);
  const send = (e: LightboxEvent) => actor.send(e);
  return {
    ...lightboxView(context),
    next: () => send({ type: 'lightbox.next' }),
    previous: () => send({ type: 'lightbox.previous' }),
    zoomIn: () => send({ type: 'lightbox.zoomIn' }),
    zoomOut: () => send({ type: 'lightbox.zoomOut' }),
    zoomReset: () => send({ type: 'lightbox.zoomReset' }),
    close: () => send({ type: 'lightbox.close' }),
  };
}
