import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useViewPorts } from '../app/RuntimeContext';
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
  const view = lightboxView(context);
  return {
    ...view,
    ...useShownPicture(view.item),
    next: () => send({ type: 'lightbox.next' }),
    previous: () => send({ type: 'lightbox.previous' }),
    zoomIn: () => send({ type: 'lightbox.zoomIn' }),
    zoomOut: () => send({ type: 'lightbox.zoomOut' }),
    zoomReset: () => send({ type: 'lightbox.zoomReset' }),
    close: () => send({ type: 'lightbox.close' }),
  };
}

/** What the stage shows: a secret chat's picture once decrypted (null meanwhile), or why it could not be. */
export interface ShownPicture {
  src: string | null;
  unreadable: boolean;
}

/**
 * The picture's address: its own, or for a secret chat's picture (only ciphertext on the server) an object URL of it
 * decrypted on this device, kept while it is shown and revoked when another is shown or the lightbox closes.
 */
function useShownPicture(item: LightboxItem | null): ShownPicture {
  const { openSecretAttachment } = useViewPorts();
  const secret = item?.secret ?? null;
  const [opened, setOpened] = useState<{ of: unknown; src: string | null; unreadable: boolean } | null>(null);
  useEffect(() => {
    if (!secret) return;
    const controller = new AbortController();
    let made: string | null = null;
    openSecretAttachment(secret, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        made = URL.createObjectURL(blob);
        setOpened({ of: secret, src: made, unreadable: false });
      },
      () => {
        if (!controller.signal.aborted) setOpened({ of: secret, src: null, unreadable: true });
      },
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [secret, openSecretAttachment]);
  if (!secret) return { src: item?.url ?? null, unreadable: false };
  return opened?.of === secret ? { src: opened.src, unreadable: opened.unreadable } : { src: null, unreadable: false };
}
