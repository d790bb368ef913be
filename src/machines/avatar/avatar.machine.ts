// The profile dialog's avatar editor (docs/behaviour.md §2, §4, §5; systemId 'avatar'): choose an image (images
// only), move and scale it under a round window, then crop, upload and save it as the avatar; 'Загрузка...'
// while that runs and 'Готово' for the success-message time after. The own record is fetched again once
// the avatar is saved (the profile actor; the server's profile:update tells everyone else).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import { TIMINGS } from '../../contract/limits';
import { notWired } from '../not-wired';

export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 2;
export const ZOOM_STEP = 0.01;
export const NOT_AN_IMAGE = 'Можно выбрать только изображение';
export const AVATAR_FAILED = 'Не удалось загрузить аватар';

export interface Point {
  x: number;
  y: number;
}
export interface PixelArea extends Point {
  width: number;
  height: number;
}

export interface AvatarContext {
  /** The chosen image as a URL the crop view can show (a data: URL). */
  source: string | null;
  crop: Point;
  zoom: number;
  /** The square under the round window, in the image's pixels (reported by the crop view). */
  area: PixelArea | null;
  error: string | null;
}

export type AvatarEvent =
  | { type: 'avatar.selected'; file: Blob & { type: string } }
  | { type: 'avatar.moved'; crop: Point }
  | { type: 'avatar.zoomed'; zoom: number }
  | { type: 'avatar.areaChanged'; area: PixelArea }
  | { type: 'avatar.upload' }
  | { type: 'avatar.cancel' };

const clampZoom = (z: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number.isFinite(z) ? z : 1));
const initialContext = (): AvatarContext => ({ source: null, crop: { x: 0, y: 0 }, zoom: 1, area: null, error: null });

export const avatarMachine = setup({
  types: { context: {} as AvatarContext, events: {} as AvatarEvent },
  actors: {
    /** The file as a data: URL. */
    readImage: notWired<string, { file: Blob }>('avatar.readImage'),
    /** The area of the image as an image file. */
    cropImage: notWired<Blob, { source: string; area: PixelArea }>('avatar.cropImage'),
    /** POST /api/upload. */
    uploadImage: notWired<{ url: string }, { file: Blob }>('avatar.uploadImage'),
    /** PATCH /status/me {avatarUrl}. */
    saveAvatar: notWired<ResponseOf<'patchMe'>, BodyOf<'patchMe'>>('avatar.saveAvatar'),
  },
  guards: {
    isImage: ({ event }) => {
      assertEvent(event, 'avatar.selected');
      return event.file.type.startsWith('image/');
    },
    hasArea: ({ context }) => context.source !== null && context.area !== null,
  },
  actions: {
    refuseFile: assign({ error: NOT_AN_IMAGE }),
    fail: assign({ error: AVATAR_FAILED }),
  },
  delays: { successMessage: TIMINGS.successMessageMs },
}).createMachine({
  id: 'avatar',
  context: initialContext,
  initial: 'idle',
  states: {
    idle: {
      on: {
        'avatar.selected': [
          { guard: 'isImage', target: 'reading', actions: assign(initialContext) },
          { actions: 'refuseFile' },
        ],
      },
    },
    reading: {
      invoke: {
        id: 'readImage',
        src: 'readImage',
        input: ({ event }) => {
          assertEvent(event, 'avatar.selected');
          return { file: event.file };
        },
        onDone: { target: 'editing', actions: assign({ source: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: 'fail' },
      },
      on: { 'avatar.cancel': { target: 'idle', actions: assign(initialContext) } },
    },
    editing: {
      on: {
        'avatar.moved': { actions: assign({ crop: ({ event }) => event.crop }) },
        'avatar.zoomed': { actions: assign({ zoom: ({ event }) => clampZoom(event.zoom) }) },
        'avatar.areaChanged': { actions: assign({ area: ({ event }) => event.area }) },
        'avatar.upload': { guard: 'hasArea', target: 'cropping', actions: assign({ error: null }) },
        'avatar.cancel': { target: 'idle', actions: assign(initialContext) },
        'avatar.selected': [
          { guard: 'isImage', target: 'reading', actions: assign(initialContext) },
          { actions: 'refuseFile' },
        ],
      },
    },
    cropping: {
      tags: ['busy'],
      invoke: {
        id: 'cropImage',
        src: 'cropImage',
        input: ({ context }) => ({ source: context.source!, area: context.area! }),
        onDone: 'uploading',
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'uploadImage',
        src: 'uploadImage',
        input: ({ event }) => ({ file: (event as unknown as { output: Blob }).output }),
        onDone: 'saving',
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveAvatar',
        src: 'saveAvatar',
        input: ({ event }) => ({ avatarUrl: (event as unknown as { output: { url: string } }).output.url }),
        onDone: {
          target: 'done',
          actions: [
            assign(initialContext),
            enqueueActions(({ system, enqueue }) => {
              const profile = system.get('profile');
              if (profile) enqueue.sendTo(profile, { type: 'profile.refetch' });
            }),
          ],
        },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    done: {
      tags: ['done'],
      after: { successMessage: 'idle' },
      on: {
        'avatar.selected': [
          { guard: 'isImage', target: 'reading', actions: assign(initialContext) },
          { actions: 'refuseFile' },
        ],
      },
    },
  },
});

export type AvatarActorRef = import('xstate').ActorRefFrom<typeof avatarMachine>;
