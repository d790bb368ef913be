import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { AVATAR_FAILED, avatarMachine, NOT_AN_IMAGE, ZOOM_MAX, ZOOM_MIN } from './avatar.machine';

const png = new Blob(['png'], { type: 'image/png' });
const pdf = new Blob(['pdf'], { type: 'application/pdf' });
const area = { x: 10, y: 20, width: 200, height: 200 };
const hang = fromPromise(() => new Promise<never>(() => {})) as never;
type Snap = { context: { area: unknown; zoom: number; error: string | null }; matches(v: unknown): boolean };

describeModel({
  name: 'avatar',
  machine: avatarMachine.provide({ actors: { readImage: hang, cropImage: hang, uploadImage: hang, saveAvatar: hang } }),
  events: {
    'avatar.selected': (s) => [
      { type: 'avatar.selected', file: png },
      ...((s as Snap).context.error ? [] : [{ type: 'avatar.selected', file: pdf }]),
    ],
    'avatar.moved': () => [{ type: 'avatar.moved', crop: { x: 5, y: -5 } }],
    'avatar.zoomed': (s) => ((s as Snap).context.zoom === 1 ? [{ type: 'avatar.zoomed', zoom: 7 }] : []),
    'avatar.areaChanged': (s) => ((s as Snap).context.area ? [] : [{ type: 'avatar.areaChanged', area }]),
    'xstate.done.actor.readImage': () => [
      { type: 'xstate.done.actor.readImage', output: 'data:image/png;base64,AAAA' },
    ],
    'xstate.error.actor.readImage': () => [{ type: 'xstate.error.actor.readImage', error: new Error('read failed') }],
    'xstate.done.actor.cropImage': () => [{ type: 'xstate.done.actor.cropImage', output: png }],
    'xstate.error.actor.cropImage': () => [{ type: 'xstate.error.actor.cropImage', error: new Error('no canvas') }],
    'xstate.done.actor.uploadImage': () => [
      { type: 'xstate.done.actor.uploadImage', output: { url: '/uploads/a.webp' } },
    ],
    'xstate.error.actor.uploadImage': () => [
      { type: 'xstate.error.actor.uploadImage', error: new Error('upload failed') },
    ],
    'xstate.done.actor.saveAvatar': () => [{ type: 'xstate.done.actor.saveAvatar', output: { user: {} } }],
    'xstate.error.actor.saveAvatar': () => [{ type: 'xstate.error.actor.saveAvatar', error: new Error('400') }],
  },
});

describe('avatar with resolving actors', () => {
  it('crops the chosen area, uploads the cropped image, saves its URL and asks the profile to refetch', async () => {
    const calls: unknown[] = [];
    const heard: unknown[] = [];
    const cropped = new Blob(['webp'], { type: 'image/webp' });
    const editor = avatarMachine.provide({
      actors: {
        readImage: fromPromise(async () => 'data:image/png;base64,AAAA') as never,
        cropImage: fromPromise(async ({ input }) => {
          calls.push(['crop', input]);
          return cropped;
        }) as never,
        uploadImage: fromPromise(async ({ input }) => {
          calls.push(['upload', (input as { file: unknown }).file === cropped]);
          return { url: '/uploads/a.webp' };
        }) as never,
        saveAvatar: fromPromise(async ({ input }) => {
          calls.push(['save', input]);
          return { user: {} };
        }) as never,
      },
    });
    const profile = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'profile', src: profile, systemId: 'profile' },
          { id: 'avatar', src: editor, systemId: 'avatar' },
        ],
      }),
    ).start();
    const actor = root.system.get('avatar');
    actor.send({ type: 'avatar.selected', file: png });
    await waitFor(actor, (s: Snap) => s.matches('editing'));
    actor.send({ type: 'avatar.upload' }); // no area reported yet: nothing happens
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'avatar.zoomed', zoom: 0.2 });
    expect(actor.getSnapshot().context.zoom).toBe(ZOOM_MIN);
    actor.send({ type: 'avatar.zoomed', zoom: 1.5 });
    actor.send({ type: 'avatar.areaChanged', area });
    actor.send({ type: 'avatar.upload' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s: Snap) => s.matches('done'));
    expect(calls).toEqual([
      ['crop', { source: 'data:image/png;base64,AAAA', area }],
      ['upload', true],
      ['save', { avatarUrl: '/uploads/a.webp', conversationId: null }],
    ]);
    expect(heard).toContainEqual({ type: 'profile.refetch' });
    root.stop();
    expect(ZOOM_MAX).toBe(2);
  });

  it('refuses a file that is not an image, and a failed upload says so and keeps the editor', async () => {
    const actor = createActor(
      avatarMachine.provide({
        actors: {
          readImage: fromPromise(async () => 'data:image/png;base64,AAAA') as never,
          cropImage: fromPromise(async () => png) as never,
          uploadImage: fromPromise(async () => {
            throw new Error('upload failed');
          }) as never,
        },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'avatar.selected', file: pdf });
    expect(actor.getSnapshot().context.error).toBe(NOT_AN_IMAGE);
    actor.send({ type: 'avatar.selected', file: png });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'avatar.areaChanged', area });
    actor.send({ type: 'avatar.upload' });
    await waitFor(actor, (s) => s.context.error === AVATAR_FAILED);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.source).not.toBeNull();
  });

  it("a group's picture is saved for that group, and one's own record is not fetched again", async () => {
    const saved: unknown[] = [];
    const heard: unknown[] = [];
    const editor = avatarMachine.provide({
      actors: {
        readImage: fromPromise(async () => 'data:image/png;base64,AAAA') as never,
        cropImage: fromPromise(async () => png) as never,
        uploadImage: fromPromise(async () => ({ url: '/uploads/g.webp' })) as never,
        saveAvatar: fromPromise(async ({ input }) => {
          saved.push(input);
          return {};
        }) as never,
      },
    });
    const profile = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'profile', src: profile, systemId: 'profile' },
          { id: 'groupAvatar', src: editor, systemId: 'groupAvatar', input: { conversationId: 'g1' } },
        ],
      }),
    ).start();
    const actor = root.system.get('groupAvatar');
    actor.send({ type: 'avatar.selected', file: png });
    await waitFor(actor, (s: Snap) => s.matches('editing'));
    actor.send({ type: 'avatar.cancel' });
    expect(actor.getSnapshot().context.conversationId).toBe('g1');
    actor.send({ type: 'avatar.selected', file: png });
    await waitFor(actor, (s: Snap) => s.matches('editing'));
    actor.send({ type: 'avatar.areaChanged', area });
    actor.send({ type: 'avatar.upload' });
    await waitFor(actor, (s: Snap) => s.matches('done'));
    expect(saved).toEqual([{ avatarUrl: '/uploads/g.webp', conversationId: 'g1' }]);
    expect(heard).toEqual([]);
    root.stop();
  });
});
