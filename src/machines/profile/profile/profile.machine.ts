// The signed-in user's own record (docs/behaviour.md §2, §4; systemId 'profile', spawned by the app actor): fetched
// at sign-in and again whenever the server says it changed (profile:update about oneself, from this or another
// tab) or the avatar editor saved a new avatar; and the settings page's save of name, status and bio, with
// 'Сохранено' for the success-message time. Every new record is handed to the session actor so the signed-in
// user shown everywhere follows.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { User } from '../../../contract/entities';
import { failureMessage } from '../../../contract/failure';
import { TIMINGS } from '../../../contract/limits';
import { notWired } from '../../shared/not-wired';
import { listenToServer } from '../../realtime/index';
import { watchSignedInUser } from '../../session/index';
import { systemActor } from '../../shared/system';
import { type ProfileContext, type ProfileEffects, type ProfileEvent, SAVE_FAILED } from './profile.protocol';

export * from './profile.protocol';

export const profileServerEvents = listenToServer<ProfileEvent>({
  'profile:update': (p) => ({ type: 'profile.changed', userId: p.userId }),
});

const initialContext = (): ProfileContext => ({ userId: null, me: null, saveError: null });

export const profileMachine = setup({
  types: { context: {} as ProfileContext, events: {} as ProfileEvent },
  actors: {
    session: watchSignedInUser('profile.signedIn', 'profile.signedOut'),
    serverEvents: profileServerEvents,
    fetchMe: notWired('profile.fetchMe') as ProfileEffects['fetchMe'],
    patchMe: notWired('profile.patchMe') as ProfileEffects['patchMe'],
  },
  guards: {
    aboutMe: ({ context, event }) => {
      assertEvent(event, 'profile.changed');
      return event.userId === context.userId;
    },
  },
  actions: {
    // The session keeps the signed-in user for every view (name in the header, EBLID): hand it the new record.
    takeUser: enqueueActions(({ system, enqueue }, user: User) => {
      enqueue.assign({ me: user });
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.userUpdated', user });
    }),
  },
  delays: { successMessage: TIMINGS.successMessageMs },
}).createMachine({
  id: 'profile',
  context: initialContext,
  invoke: { id: 'session', src: 'session' },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: { 'profile.signedIn': { target: 'signedIn', actions: assign({ userId: ({ event }) => event.userId }) } },
    },
    signedIn: {
      invoke: { id: 'serverEvents', src: 'serverEvents' },
      on: { 'profile.signedOut': { target: 'signedOut', actions: assign(initialContext) } },
      type: 'parallel',
      states: {
        record: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchMe',
                src: 'fetchMe',
                onDone: { target: 'ready', actions: { type: 'takeUser', params: ({ event }) => event.output.user } },
                onError: { target: 'ready' },
              },
              on: {
                'profile.refetch': { target: 'loading', reenter: true },
                'profile.changed': { guard: 'aboutMe', target: 'loading', reenter: true },
              },
            },
            ready: {
              on: {
                'profile.refetch': 'loading',
                'profile.changed': { guard: 'aboutMe', target: 'loading' },
              },
            },
          },
        },
        save: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'profile.save': { target: 'saving', actions: assign({ saveError: null }) } },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'patchMe',
                src: 'patchMe',
                input: ({ event }) => {
                  assertEvent(event, 'profile.save');
                  const { displayName, status, bio, messagePrivacy } = event.fields;
                  return {
                    displayName: displayName.trim(),
                    status,
                    bio: bio.trim() || null,
                    ...(messagePrivacy ? { messagePrivacy } : {}),
                  };
                },
                onDone: { target: 'saved', actions: { type: 'takeUser', params: ({ event }) => event.output.user } },
                onError: {
                  target: 'idle',
                  actions: assign({ saveError: ({ event }) => failureMessage(event.error, SAVE_FAILED) }),
                },
              },
            },
            saved: {
              tags: ['saved'],
              after: { successMessage: 'idle' },
              on: { 'profile.save': { target: 'saving', actions: assign({ saveError: null }) } },
            },
          },
        },
      },
    },
  },
});

export type ProfileActorRef = import('xstate').ActorRefFrom<typeof profileMachine>;
