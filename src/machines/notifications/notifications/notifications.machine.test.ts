import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, sendTo } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { conversation, message as chatMessage, person } from '../../../../tests/client/chat-fixtures';
import type { NotificationPayload } from '../../../contract/notification';
import {
  type NotificationEnvironment,
  type NotificationsContext,
  type NotificationsEvent,
  notificationsMachine,
  type PrefsCommand,
  type PresenterCommand,
} from './notifications.machine';
import { messageNotification } from './message-notification';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const env = (over: Partial<NotificationEnvironment> = {}): NotificationEnvironment => ({
  supported: true,
  permission: 'default',
  enabled: false,
  showText: true,
  ...over,
});
const bob = person('u2', 'Боб');
const direct = conversation('c1', [person('u1', 'Я'), bob]);
const fromBob = chatMessage('m1', 'u2', 1, { content: 'Привет' });
/** What the chats list hands over (through its `chats.unread`) for Боб's message. */
const unseen: NotificationsEvent = { type: 'notifications.message', message: fromBob, conversation: direct };
const message: Extract<NotificationPayload, { kind: 'message' }> = {
  kind: 'message',
  conversationId: 'c1',
  title: 'Боб',
  preview: 'Привет',
  count: 1,
  icon: null,
};
const call: Extract<NotificationPayload, { kind: 'call' }> = {
  kind: 'call',
  conversationId: 'c1',
  title: 'Боб',
  video: false,
  icon: null,
};
const groupCall: Extract<NotificationPayload, { kind: 'groupCall' }> = {
  kind: 'groupCall',
  conversationId: 'g9',
  title: 'Боб — Школа',
  video: true,
  icon: null,
};
type Snap = { context: NotificationsContext };

describeModel({
  name: 'notifications',
  machine: notificationsMachine.provide({
    actors: {
      session: silent,
      pageVisibility: silent,
      serverEvents: silent,
      unreadMessages: silent,
      presenter: silent,
      notifier: silent,
      prefs: silent,
      clicks: silent,
      readEnvironment: hang,
      requestPermission: hang,
      forgetBrowserPush: hang,
      subscribe: hang,
      unsubscribe: hang,
    },
  }),
  events: {
    'notifications.signedIn': () => [{ type: 'notifications.signedIn', userId: 'u1' }],
    'notifications.signedOut': () => [{ type: 'notifications.signedOut' }],
    'notifications.visibility': (s) => [
      { type: 'notifications.visibility', visible: !(s as Snap).context.pageVisible },
    ],
    'notifications.enable': () => [{ type: 'notifications.enable' }],
    'notifications.disable': () => [{ type: 'notifications.disable' }],
    'notifications.showText': (s) => [{ type: 'notifications.showText', showText: !(s as Snap).context.showText }],
    'notifications.message': () => [unseen],
    'notifications.call': () => [{ type: 'notifications.call', payload: call }],
    'notifications.groupCall': () => [{ type: 'notifications.groupCall', payload: groupCall }],
    'notifications.clicked': () => [
      { type: 'notifications.clicked', kind: 'message', conversationId: 'c1' },
      { type: 'notifications.clicked', kind: 'call', conversationId: 'c1' },
      { type: 'notifications.clicked', kind: 'groupCall', conversationId: 'c1' },
    ],
    'xstate.done.actor.readEnvironment': () => [
      { type: 'xstate.done.actor.readEnvironment', output: env({ supported: false }) },
      { type: 'xstate.done.actor.readEnvironment', output: env({ enabled: true, permission: 'denied' }) },
      {
        type: 'xstate.done.actor.readEnvironment',
        output: env({ enabled: true, permission: 'granted', showText: false }),
      },
      { type: 'xstate.done.actor.readEnvironment', output: env({ enabled: false, permission: 'granted' }) },
    ],
    'xstate.error.actor.readEnvironment': () => [
      { type: 'xstate.error.actor.readEnvironment', error: new Error('no storage') },
    ],
    'xstate.done.actor.requestPermission': () => [
      { type: 'xstate.done.actor.requestPermission', output: 'granted' },
      { type: 'xstate.done.actor.requestPermission', output: 'denied' },
      { type: 'xstate.done.actor.requestPermission', output: 'default' },
    ],
    'xstate.error.actor.requestPermission': () => [
      { type: 'xstate.error.actor.requestPermission', error: new Error('no API') },
    ],
    'xstate.done.actor.subscribe': () => [{ type: 'xstate.done.actor.subscribe', output: undefined }],
    'xstate.error.actor.subscribe': () => [
      { type: 'xstate.error.actor.subscribe', error: new Error('no service worker') },
    ],
    'xstate.done.actor.unsubscribe': () => [{ type: 'xstate.done.actor.unsubscribe', output: undefined }],
    'xstate.error.actor.unsubscribe': () => [{ type: 'xstate.error.actor.unsubscribe', error: new Error('offline') }],
  },
  // The switches and the permission tell states apart; who is signed in and visibility only matter to guards.
  contextKey: (ctx) => {
    const c = ctx as NotificationsContext;
    return {
      enabled: c.enabled,
      showText: c.showText,
      permission: c.permission,
      pageVisible: c.pageVisible,
      signedIn: c.userId !== null,
    };
  },
});

/** The machine with recording presenter and prefs, an environment and a permission answer of the test's choice. */
function harness(
  environment: NotificationEnvironment,
  answer: 'granted' | 'denied' | 'default' = 'granted',
  subscribeFails = false,
) {
  const shown: NotificationPayload[] = [];
  const saved: PrefsCommand[] = [];
  const subscribedWith: boolean[] = [];
  const opened: string[] = [];
  const chats: { type: string; conversationId?: string }[] = [];
  const sounds: string[] = [];
  const chimes: string[] = [];
  let announce: (e: { type: 'chats.unread'; message: typeof fromBob; conversation: typeof direct | null }) => void =
    () => {};
  const machine = notificationsMachine.provide({
    actors: {
      session: fromCallback(({ sendBack }) => sendBack({ type: 'notifications.signedIn', userId: 'u1' })) as never,
      pageVisibility: fromCallback(({ sendBack }) =>
        sendBack({ type: 'notifications.visibility', visible: false }),
      ) as never,
      serverEvents: silent,
      clicks: silent,
      notifier: fromCallback(({ receive }) => receive((c: { type: string }) => sounds.push(c.type))) as never,
      presenter: fromCallback<PresenterCommand>(({ receive }) => receive((c) => shown.push(c.payload))) as never,
      prefs: fromCallback<PrefsCommand>(({ receive }) => receive((c) => saved.push(c))) as never,
      readEnvironment: fromPromise(async () => environment) as never,
      requestPermission: fromPromise(async () => answer) as never,
      subscribe: fromPromise(async ({ input }: { input: { showText: boolean } }) => {
        subscribedWith.push(input.showText);
        if (subscribeFails) throw new Error('no push');
      }) as never,
      unsubscribe: fromPromise(async () => undefined) as never,
    },
  });
  // A stand-in for the chats actor under its systemId, recording what it is told.
  const parent = createMachine({
    invoke: [
      {
        id: 'chats',
        systemId: 'chats',
        src: fromCallback(({ receive, emit }) => {
          announce = emit;
          receive((e) => chats.push(e as never));
        }),
      },
      { id: 'n', systemId: 'notifications', src: machine },
    ],
    on: { '*': { actions: sendTo('n', ({ event }) => event) } },
  });
  const root = createActor(parent).start();
  const actor = root.system.get('notifications');
  actor.on('notifications.opened', (e: { conversationId: string }) => opened.push(e.conversationId));
  actor.on('sound.notify', (e: { conversationId: string }) => chimes.push(e.conversationId));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    actor,
    shown,
    saved,
    subscribedWith,
    opened,
    chats,
    sounds,
    chimes,
    announce: (e: Parameters<typeof announce>[0]) => announce(e),
    settle,
    state: () => actor.getSnapshot(),
  };
}

describe('notifications with resolving actors', () => {
  it('asks the browser only when the switch is flipped, then subscribes and remembers the switch', async () => {
    const h = harness(env());
    await h.settle();
    expect(h.state().matches({ signedIn: 'off' })).toBe(true);
    h.actor.send({ type: 'notifications.enable' });
    await h.settle();
    await h.settle();
    expect(h.state().matches({ signedIn: 'subscribed' })).toBe(true);
    expect(h.state().hasTag('on')).toBe(true);
    expect(h.subscribedWith).toEqual([true]);
    expect(h.saved).toEqual([{ type: 'save', userId: 'u1', prefs: { enabled: true, showText: true } }]);
  });

  it('shows messages and calls while the page is hidden; the text switch hides the preview and re-subscribes', async () => {
    const h = harness(env({ enabled: true, permission: 'granted' }));
    await h.settle();
    await h.settle();
    expect(h.state().matches({ signedIn: 'subscribed' })).toBe(true);
    h.actor.send(unseen);
    h.actor.send({ type: 'notifications.call', payload: call });
    h.actor.send({ type: 'notifications.showText', showText: false });
    await h.settle();
    h.actor.send(unseen);
    expect(h.shown).toEqual([message, call, { ...message, preview: null }]);
    expect(h.subscribedWith).toEqual([true, false]);
    // Visible again: nothing is shown.
    h.actor.send({ type: 'notifications.visibility', visible: true });
    h.actor.send(unseen);
    expect(h.shown).toHaveLength(3);
  });

  it('denied by the browser: nothing shown, the switch stays off', async () => {
    const h = harness(env(), 'denied');
    await h.settle();
    h.actor.send({ type: 'notifications.enable' });
    await h.settle();
    expect(h.state().hasTag('denied')).toBe(true);
    expect(h.state().hasTag('on')).toBe(false);
    h.actor.send(unseen);
    expect(h.shown).toEqual([]);
  });

  it('on a plain-http page: unsupported, with the https address for the note; sign-out forgets it', async () => {
    const h = harness(env({ supported: false, insecure: { secureUrl: 'https://beseda.example' } }));
    await h.settle();
    expect(h.state().hasTag('unsupported')).toBe(true);
    expect(h.state().context.insecure).toEqual({ secureUrl: 'https://beseda.example' });
    h.actor.send({ type: 'notifications.signedOut' });
    expect(h.state().context.insecure).toBeNull();
  });

  it('a failed push subscription keeps notifications for the open tab', async () => {
    const h = harness(env({ enabled: true, permission: 'granted' }), 'granted', true);
    await h.settle();
    await h.settle();
    expect(h.state().hasTag('pushFailed')).toBe(true);
    h.actor.send(unseen);
    expect(h.shown).toEqual([message]);
  });

  it('every message the chats list counts as unread chimes, shown only while hidden and switched on', async () => {
    const h = harness(env());
    await h.settle();
    expect(h.state().matches({ signedIn: 'off' })).toBe(true);
    // Heard from the chats actor's `chats.unread`.
    h.announce({ type: 'chats.unread', message: fromBob, conversation: direct });
    expect(h.sounds).toEqual(['sound.notify']);
    expect(h.chimes).toEqual(['c1']);
    expect(h.shown).toEqual([]); // the switch is off
    h.actor.send({ type: 'notifications.enable' });
    await h.settle();
    await h.settle();
    h.announce({ type: 'chats.unread', message: fromBob, conversation: direct });
    expect(h.shown).toEqual([message]);
    h.actor.send({ type: 'notifications.visibility', visible: true });
    h.announce({ type: 'chats.unread', message: fromBob, conversation: direct });
    expect(h.shown).toHaveLength(1);
    expect(h.chimes).toEqual(['c1', 'c1', 'c1']);
  });

  it('signed out: the chats list is not heard, nothing chimes', async () => {
    const h = harness(env());
    await h.settle();
    h.actor.send({ type: 'notifications.signedOut' });
    h.announce({ type: 'chats.unread', message: fromBob, conversation: direct });
    expect(h.sounds).toEqual([]);
  });

  it('a clicked message notification opens its conversation in the chats actor and tells the view', async () => {
    const h = harness(env());
    await h.settle();
    h.actor.send({ type: 'notifications.clicked', kind: 'message', conversationId: 'c7' });
    h.actor.send({ type: 'notifications.clicked', kind: 'call', conversationId: 'c8' });
    // A large group's call: its conversation opens, where «Присоединиться» is.
    h.actor.send({ type: 'notifications.clicked', kind: 'groupCall', conversationId: 'g9' });
    expect(h.chats).toEqual([
      { type: 'chats.open', conversationId: 'c7' },
      { type: 'chats.open', conversationId: 'g9' },
    ]);
    expect(h.opened).toEqual(['c7', 'g9']);
  });

  it('a call started in a group too large to ring chimes, and is shown while hidden and switched on', async () => {
    const h = harness(env());
    await h.settle();
    h.actor.send({ type: 'notifications.groupCall', payload: groupCall });
    expect(h.chimes).toEqual(['g9']);
    expect(h.shown).toEqual([]); // the switch is off
    h.actor.send({ type: 'notifications.enable' });
    await h.settle();
    await h.settle();
    h.actor.send({ type: 'notifications.groupCall', payload: groupCall });
    expect(h.shown).toEqual([groupCall]);
    h.actor.send({ type: 'notifications.visibility', visible: true });
    h.actor.send({ type: 'notifications.groupCall', payload: groupCall });
    expect(h.shown).toHaveLength(1);
    expect(h.chimes).toEqual(['g9', 'g9', 'g9']);
  });
});

describe('message notification', () => {
  const anna = person('u3', 'Анна', { avatarUrl: '/uploads/anna.webp' });
  it('names the sender, and the group after it; the avatar only of a direct peer, never an emoji', () => {
    expect(messageNotification(direct, fromBob)).toEqual(message);
    const annaSays = chatMessage('m2', 'u3', 2, { conversationId: 'g1', type: 'IMAGE' });
    const group = conversation('g1', [bob, anna], { isGroup: true, title: 'Дача' });
    expect(messageNotification(group, annaSays)).toEqual({
      kind: 'message',
      conversationId: 'g1',
      title: 'Анна — Дача',
      preview: 'Фото',
      count: 1,
      icon: null,
    });
    expect(messageNotification(conversation('g1', [bob, anna]), annaSays).icon).toBe('/uploads/anna.webp');
    const emoji = person('u3', 'Анна', { avatarUrl: 'emoji:🦊' });
    expect(messageNotification(conversation('g1', [bob, emoji]), annaSays).icon).toBeNull();
  });
  it('a conversation the list does not know yet: «Беседа»', () => {
    expect(messageNotification(null, fromBob)).toMatchObject({ title: 'Беседа', preview: 'Привет', icon: null });
  });
});

describe('notifications at sign-out', () => {
  it('ends the browser’s own push subscription when the user signs out, never at start', async () => {
    let forgotten = 0;
    const actor = createActor(
      notificationsMachine.provide({
        actors: {
          session: silent,
          pageVisibility: silent,
          serverEvents: silent,
          unreadMessages: silent,
          presenter: silent,
          notifier: silent,
          prefs: silent,
          clicks: silent,
          readEnvironment: hang,
          forgetBrowserPush: fromPromise(async () => {
            forgotten++;
          }) as never,
        },
      }),
    ).start();
    actor.send({ type: 'notifications.signedIn', userId: 'u1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(forgotten).toBe(0);
    actor.send({ type: 'notifications.signedOut' });
    await new Promise((r) => setTimeout(r, 0));
    expect(forgotten).toBe(1);
  });
});
