// Where machines meet services: the root machine with every child's effectful actors provided from the real
// (or, in tests, partly replaced) services. Feature machines add their entry here.
import { fromCallback, fromPromise } from 'xstate';
import type { BodyOf, ResponseOf } from '../../contract/api';
import { appMachine } from '../machines/app/app.machine';
import { callMachine } from '../../features/calls/machines/call/call.machine';
import { callsPageMachine } from '../../features/calls/machines/callsPage/callsPage.machine';
import { chatsFooterMachine } from '../../features/chats/machines/chatsFooter/chatsFooter.machine';
import { avatarMachine } from '../../features/profile/machines/avatar/avatar.machine';
import { connectivityMachine } from '../machines/connectivity/connectivity.machine';
import { contactCodeMachine, type SearchOutput } from '../../features/contacts/machines/contactCode/contactCode.machine';
import { contactsMachine } from '../../features/contacts/machines/contacts/contacts.machine';
import { groupDialogMachine } from '../../features/contacts/machines/groupDialog/groupDialog.machine';
import { notificationsMachine, type NotifierCommand, type PrefsCommand, type PresenterCommand } from '../../features/notifications/machines/notifications/notifications.machine';
import { offlineStoreMachine } from '../machines/offlineStore/offlineStore.machine';
import { profileMachine } from '../../features/profile/machines/profile/profile.machine';
import { realtimeMachine } from '../machines/realtime/realtime.machine';
import { socketActor } from '../machines/realtime/socket.actor';
import { type SearchRequest, searchMachine } from '../../features/search/machines/search/search.machine';
import { sessionMachine } from '../machines/session/session.machine';
import { configuredVideoServerUrl, requestRoomToken, videoServerFallbackUrl } from '../../features/calls/services/livekit';
import type { Services } from './services';
import { wireChats } from '../../features/chats/wiring';

export function wireApp(s: Services) {
  const addContact = fromPromise(({ input }: { input: BodyOf<'contactAdd'> }) => s.api.call('contactAdd', { body: input }));
  const patchMe = fromPromise(({ input }: { input: BodyOf<'patchMe'> }) => s.api.call('patchMe', { body: input }));
  return appMachine.provide({
    actors: {
      chats: wireChats(s),
      contacts: contactsMachine.provide({
        actors: {
          fetchContacts: fromPromise(() => s.api.call('contacts', { query: { filter: 'all' } })),
          respond: fromPromise(({ input }: { input: BodyOf<'contactRespond'> }) => s.api.call('contactRespond', { body: input })),
          removeContact: fromPromise<unknown, BodyOf<'contactRemove'>>(({ input }) => s.api.call('contactRemove', { body: input })),
          addContact,
          openDirect: fromPromise(({ input }: { input: BodyOf<'conversationWith'> }) => s.api.call('conversationWith', { body: input })),
        },
      }),
      contactCode: contactCodeMachine.provide({
        actors: {
          // The first result is the one used (docs/behaviour.md §3); the code travels with the answer.
          search: fromPromise<SearchOutput, { code: string }>(async ({ input }) => {
            const { results } = await s.api.call('contactSearch', { query: { code: input.code } });
            return { code: input.code, user: results[0] ?? null };
          }),
          addContact,
        },
      }),
      profile: profileMachine.provide({ actors: { fetchMe: fromPromise(() => s.api.call('me')), patchMe } }),
      avatar: avatarMachine.provide({
        actors: {
          readImage: fromPromise(({ input }: { input: { file: Blob } }) => s.avatarImage.read(input.file)),
          cropImage: fromPromise(({ input }: { input: { source: string; area: { x: number; y: number; width: number; height: number } } }) =>
            s.avatarImage.crop(input.source, input.area),
          ),
          uploadImage: fromPromise<{ url: string }, { file: Blob }>(({ input, signal }) =>
            s.upload(Object.assign(input.file, { name: 'avatar.webp' }), { signal }),
          ),
          saveAvatar: patchMe,
        },
      }),
      search: searchMachine.provide({
        actors: {
          find: fromPromise(async ({ input, signal }: { input: SearchRequest; signal: AbortSignal }) => ({
            ...(await s.api.call('search', { query: input, signal })),
            request: input,
          })),
        },
      }),
      chatsFooter: chatsFooterMachine.provide({
        actors: { copyText: fromPromise(({ input }: { input: { text: string } }) => navigator.clipboard.writeText(input.text)) },
      }),
      groupDialog: groupDialogMachine.provide({
        actors: {
          createGroup: fromPromise(({ input }: { input: BodyOf<'createConversation'> }) =>
            s.api.call('createConversation', { body: input }),
          ),
        },
      }),
      session: sessionMachine.provide({
        actors: {
          login: fromPromise(({ input }: { input: BodyOf<'login'> }) => s.authApi.login(input)),
          register: fromPromise(({ input }: { input: BodyOf<'register'> }) => s.authApi.register(input)),
          refresh: fromPromise(({ input }: { input: { refreshToken: string } }) => s.authApi.refresh(input.refreshToken)),
          logout: fromPromise<unknown, { refreshToken: string }>(({ input }) => s.authApi.logout(input.refreshToken)),
          fetchMe: fromPromise<ResponseOf<'me'> | null>(() => s.api.call('me')),
        },
      }),
      realtime: realtimeMachine.provide({ actors: { socket: socketActor(s.connectSocket) } }),
      connectivity: connectivityMachine.provide({ actors: { ping: fromPromise(() => s.ping()) } }),
      call: callMachine.provide({
        actors: {
          fetchToken: fromPromise(({ input }: { input: { room: string } }) => requestRoomToken(s.api, input)),
          ring: fromCallback(() => {
            s.sound.startRing();
            return () => s.sound.stopRing();
          }),
          ringback: fromCallback(() => {
            s.sound.startRingback();
            return () => s.sound.stopRingback();
          }),
        },
      }),
      notifications: wireNotifications(s),
      offlineStore: offlineStoreMachine.provide({
        actors: { clear: fromPromise<unknown, { userId: string }>(({ input }) => s.offline.clear(input.userId)) },
      }),
      callsPage: callsPageMachine.provide({
        actors: {
          fetchToken: fromPromise(({ input }: { input: { room: string; participantName: string } }) =>
            requestRoomToken(s.api, input),
          ),
          serverAddress: fromPromise(async () =>
            typeof window === 'undefined' ? null : videoServerFallbackUrl(window.location, configuredVideoServerUrl()),
          ),
        },
      }),
    },
  });
}

/** The notification code loads on first use, apart from the chats page's first bundle. */
const notificationCode = () => import('../../features/notifications/services/notifications');

function wireNotifications(s: Services) {
  return notificationsMachine.provide({
    actors: {
      readEnvironment: fromPromise(({ input }: { input: { userId: string } }) => notificationCode().then((m) => m.readEnvironment(input.userId))),
      requestPermission: fromPromise(() => notificationCode().then((m) => m.requestPermission())),
      subscribe: fromPromise(({ input }: { input: { showText: boolean } }) => notificationCode().then((m) => m.subscribe(s.api, input.showText))),
      unsubscribe: fromPromise(() => notificationCode().then((m) => m.unsubscribe(s.api))),
      presenter: fromCallback<PresenterCommand>(({ receive }) => {
        receive((c) => {
          void notificationCode()
            .then((m) => m.present(c.payload))
            .catch(() => undefined);
        });
      }),
      // The sound is part of the first bundle (the notification code is not needed to chime).
      notifier: fromCallback<NotifierCommand>(({ receive }) => {
        receive(() => s.sound.notify());
      }),
      prefs: fromCallback<PrefsCommand>(({ receive }) => {
        receive((c) => void notificationCode().then((m) => m.savePrefs(c.userId, c.prefs)));
      }),
      clicks: fromCallback(({ sendBack }) => {
        let stop: (() => void) | null = null;
        let stopped = false;
        void notificationCode().then((m) => {
          if (stopped) return;
          stop = m.watchClicks((o) => sendBack({ type: 'notifications.clicked', kind: o.kind, conversationId: o.conversationId }));
        });
        return () => {
          stopped = true;
          stop?.();
        };
      }),
    },
  });
}
