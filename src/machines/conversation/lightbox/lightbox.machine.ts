// The image lightbox of the chats page (docs/behaviour.md §2): the images of a message, one shown at a time; previous and
// next wrap around; zoom minus / 100% / plus between 0.25 and 4 in steps of 0.25 (LIGHTBOX_ZOOM); close. Moving to
// another image shows it at 100 %. View-local state: the Lightbox component runs one actor while it is open.
import { assign, setup } from 'xstate';
import { LIGHTBOX_ZOOM } from '../../../contract/limits';
import type { LightboxContext, LightboxEvent, LightboxInput } from './lightbox.protocol';

export * from './lightbox.protocol';

const wrap = (i: number, n: number) => (n === 0 ? 0 : ((i % n) + n) % n);
/** Steps are exact binary fractions (0.25), so adding them never drifts. */
const clampZoom = (z: number) => Math.min(LIGHTBOX_ZOOM.max, Math.max(LIGHTBOX_ZOOM.min, z));

export const lightboxMachine = setup({
  types: {
    context: {} as LightboxContext,
    events: {} as LightboxEvent,
    input: {} as LightboxInput,
  },
  guards: {
    severalItems: ({ context }) => context.items.length > 1,
    canZoomIn: ({ context }) => context.zoom < LIGHTBOX_ZOOM.max,
    canZoomOut: ({ context }) => context.zoom > LIGHTBOX_ZOOM.min,
    zoomed: ({ context }) => context.zoom !== 1,
  },
  actions: {
    step: assign({
      index: ({ context }, delta: number) => wrap(context.index + delta, context.items.length),
      zoom: 1,
    }),
    zoomBy: assign({ zoom: ({ context }, delta: number) => clampZoom(context.zoom + delta) }),
  },
}).createMachine({
  id: 'lightbox',
  context: ({ input }) => ({
    items: input.items,
    index: wrap(Math.trunc(input.index) || 0, input.items.length),
    zoom: 1,
  }),
  initial: 'viewing',
  states: {
    viewing: {
      on: {
        'lightbox.next': { guard: 'severalItems', actions: { type: 'step', params: 1 } },
        'lightbox.previous': { guard: 'severalItems', actions: { type: 'step', params: -1 } },
        'lightbox.zoomIn': { guard: 'canZoomIn', actions: { type: 'zoomBy', params: LIGHTBOX_ZOOM.step } },
        'lightbox.zoomOut': { guard: 'canZoomOut', actions: { type: 'zoomBy', params: -LIGHTBOX_ZOOM.step } },
        'lightbox.zoomReset': { guard: 'zoomed', actions: assign({ zoom: 1 }) },
        'lightbox.close': 'closed',
      },
    },
    closed: { type: 'final' },
  },
});

export type LightboxMachine = typeof lightboxMachine;
