// The profile dialog's avatar editor (docs/behaviour.md §2, §4, §5; registry line 'avatar'): choose an image (images
// only), move and scale it under a round window, then crop, upload and save it as the avatar; 'Загрузка...'
// while that runs and 'Готово' for the success-message time after. The own record is fetched again once
// the avatar is saved (the profile actor; the server's profile:update tells everyone else).
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import { systemActor } from '../../shared/system';
import {
  AVATAR_FAILED,
  type AvatarContext,
  type AvatarEffects,
  type AvatarEvent,
  type AvatarInput,
  NOT_AN_IMAGE,
  ZOOM_MAX,
  ZOOM_MIN,
} from './avatar.protocol';
import { present } from '../../shared/present';

export * from './avatar.protocol';

const clampZoom = (z: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number.isFinite(z) ? z : 1));
const initialContext = (): AvatarContext => ({
  conversationId: null,
  source: null,
  crop: { x: 0, y: 0 },
  zoom: 1,
  area: null,
  cropped: null,
  uploadedUrl: null,
  error: null,
});

export const avatarMachine = setup({
  types: { context: {} as AvatarContext, events: {} as AvatarEvent, input: {} as AvatarInput },
  actors: {
    readImage: notWired('avatar.readImage') as AvatarEffects['readImage'],
    cropImage: notWired('avatar.cropImage') as AvatarEffects['cropImage'],
    uploadImage: notWired('avatar.uploadImage') as AvatarEffects['uploadImage'],
    saveAvatar: notWired('avatar.saveAvatar') as AvatarEffects['saveAvatar'],
  },
  guards: {
    isImage: ({ event }) => {
      assertEvent(event, 'avatar.selected');
      return event.file.type.startsWith('image/');
    },
    hasArea: ({ context }) => context.source !== null && context.area !== null,
  },
  actions: {
    /** Back to a fresh editor for the same picture (the profile's or a group's). */
    reset: assign(({ context }) => ({ ...initialContext(), conversationId: context.conversationId })),
    refuseFile: assign({ error: NOT_AN_IMAGE }),
    fail: assign({ error: AVATAR_FAILED }),
  },
  delays: { successMessage: TIMINGS.successMessageMs },
}).createMachine({
  id: 'avatar',
  context: ({ input }) => ({ ...initialContext(), conversationId: input?.conversationId ?? null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'avatar.selected': [{ guard: 'isImage', target: 'reading', actions: 'reset' }, { actions: 'refuseFile' }],
      },
    },
    reading: {
      tags: ['reading'],
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
      on: { 'avatar.cancel': { target: 'idle', actions: 'reset' } },
    },
    editing: {
      tags: ['editing'],
      on: {
        'avatar.moved': { actions: assign({ crop: ({ event }) => event.crop }) },
        'avatar.zoomed': { actions: assign({ zoom: ({ event }) => clampZoom(event.zoom) }) },
        'avatar.areaChanged': { actions: assign({ area: ({ event }) => event.area }) },
        'avatar.upload': { guard: 'hasArea', target: 'cropping', actions: assign({ error: null }) },
        'avatar.cancel': { target: 'idle', actions: 'reset' },
        'avatar.selected': [{ guard: 'isImage', target: 'reading', actions: 'reset' }, { actions: 'refuseFile' }],
      },
    },
    cropping: {
      tags: ['busy'],
      invoke: {
        id: 'cropImage',
        src: 'cropImage',
        input: ({ context }) => ({ source: present(context.source, 'source'), area: present(context.area, 'area') }),
        onDone: { target: 'uploading', actions: assign({ cropped: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        id: 'uploadImage',
        src: 'uploadImage',
        input: ({ context }) => ({ file: present(context.cropped, 'cropped') }),
        onDone: { target: 'saving', actions: assign({ cropped: null, uploadedUrl: ({ event }) => event.output.url }) },
        onError: { target: 'editing', actions: 'fail' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveAvatar',
        src: 'saveAvatar',
        input: ({ context }) => ({
          avatarUrl: present(context.uploadedUrl, 'uploadedUrl'),
          conversationId: context.conversationId,
        }),
        onDone: {
          target: 'done',
          actions: [
            'reset',
            enqueueActions(({ context, system, enqueue }) => {
              // A group's picture reaches everyone as conversation:updated; one's own needs the record again.
              const profile = systemActor(system, 'profile');
              if (profile && context.conversationId === null) enqueue.sendTo(profile, { type: 'profile.refetch' });
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
        'avatar.selected': [{ guard: 'isImage', target: 'reading', actions: 'reset' }, { actions: 'refuseFile' }],
      },
    },
  },
});

export type AvatarActorRef = import('xstate').ActorRefFrom<typeof avatarMachine>;
