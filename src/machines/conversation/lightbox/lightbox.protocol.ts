// The lightbox's protocol (view-local: the Lightbox component runs one actor while it is open): its input and the
// events it accepts. The view imports this module for its types.
import { LIGHTBOX_ZOOM } from '../../../contract/limits';
import type { SecretAttachment } from '../../secretChats/secretChat/secretChat.protocol';
import type { MachineRef } from '../../shared/machine-ref';

export interface LightboxItem {
  url: string;
  name?: string;
  /** A secret chat's picture: `url` is its ciphertext, which the view decrypts while it shows it. */
  secret?: SecretAttachment;
}

export interface LightboxInput {
  items: LightboxItem[];
  index: number;
}

export interface LightboxContext {
  items: LightboxItem[];
  index: number;
  /** 1 = 100 %. */
  zoom: number;
}

export type LightboxEvent =
  | { type: 'lightbox.next' }
  | { type: 'lightbox.previous' }
  | { type: 'lightbox.zoomIn' }
  | { type: 'lightbox.zoomOut' }
  | { type: 'lightbox.zoomReset' }
  | { type: 'lightbox.close' };

export type LightboxRef = MachineRef<LightboxContext, LightboxEvent>;

/** What the view shows, derived from a snapshot's context. */
export function lightboxView(context: LightboxContext) {
  return {
    item: context.items[context.index] ?? null,
    index: context.index,
    count: context.items.length,
    zoom: context.zoom,
    canZoomIn: context.zoom < LIGHTBOX_ZOOM.max,
    canZoomOut: context.zoom > LIGHTBOX_ZOOM.min,
  };
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The image viewer (spawned while it is shown). */
    lightbox: LightboxRef;
  }
}
