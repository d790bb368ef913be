// The lightbox's protocol (view-local: the Lightbox component runs one actor while it is open): its input and the
// events it accepts. The view imports this module for its types.
import type { MachineRef } from '../../../../core/machines/machine-ref';

export interface LightboxItem {
  url: string;
  name?: string;
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
