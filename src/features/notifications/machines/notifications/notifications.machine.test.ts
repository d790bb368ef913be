import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, sendTo } from 'xstate';
import { describeModel } from '../../../../../tests/model/harness';
import type { NotificationPayload } from '../../../../contract/notification';
import { type NotificationEnvironment, type NotificationsContext, notificationsMachine, type PrefsCommand, type PresenterCommand } from './notifications.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const env = (over: Partial<NotificationEnvironment> = {}): NotificationEnvironment => ({
  supported: true,
  permission: 'default',
  enabled: false,
  showText: true,
  ...over,
});
const message: Extract<NotificationPayload, { kind: 'message' }> = {
  kind: 'message',
  conversationId: 'c1',
  title: 'Боб',
  preview: 'Привет',
  count: 1,
  icon: null,
};
const call: Extract<NotificationPayload, { kind: 'call' }> = { kind: 'call', conversationId: 'c1', title: 'Боб', video: false, icon: null };
type Snap = { context: NotificationsContext };

describeModel({
  name: 'notifications',
  machine: notificationsMachine.provide({
    actors: {
      session: silent,
      pageVisibility: silent,
      serverEvents: silent,
      presenter: silent,
      prefs: silent,
      clicks: silent,
      readEnvironment: hang,
      requestPermission: hang,
      subscribe: hang,
      unsubscribe: hang,
    },
  }),
  events: {
    'notifications.signedIn': () => [{ type: 'notifications.signedIn', userId: 'u1' }],
    'notifications.signedOut': () => [{ type: 'notifications.signedOut' }],
    'notifications.visibility': (s) => [{ type: 'notifications.visibility', visible: !(s as Snap).context.pageVisible }],
    'notifications.enable': () => [{ type: 'notifications.enable' }],
    'notifications.disable': () => [{ type: 'notifications.disable' }],
    'notifications.showText': (s) => [{ type: 'notifications.showText', showText: !(s as Snap).context.showText }],
    'notifications.message': () => [{ type: 'notifications.message', payload: message }],
    'notifications.call': () => [{ type: 'notifications.call', payload: call }],
    'notifications.clicked': () => [
      { type: 'notifications.clicked', kind: 'message', conversationId: 'c1' },
      { type: 'notifications.clicked', kind: 'call', conversationId: 'c1' },
    ],
    'xstate.done.actor.readEnvironment': () => [
      { type: 'xstate.done.actor.readEnvironment', output: env({ supported: false }) },
      { type: 'xstate.done.actor.readEnvironment', output: env({ enabled: true, permission: 'denied' }) },
      { type: 'xstate.done.actor.readEnvironment', output: env({ enabled: true, permission: 'granted', showText: false }) },
      { type: 'xstate.done.actor.readEnvironment', output: env({ enabled: false, permission: 'granted' }) },
    ],
    'xstate.error.actor.readEnvironment': () => [{ type: 'xstate.error.actor.readEnvironment', error: new Error('no storage') }],
    'xstate.done.actor.requestPermission': () => [
      { type: 'xstate.done.actor.requestPermission', output: 'granted' },
      { type: 'xstate.done.actor.requestPermission', output: 'denied' },
      { type: 'xstate.done.actor.requestPermission', output: 'default' },
    ],
    'xstate.error.actor.requestPermission': () => [{ type: 'xstate.error.actor.requestPermission', error: new Error('no API') }],
    'xstate.done.actor.subscribe': () => [{ type: 'xstate.done.actor.subscribe', output: undefined }],
    'xstate.error.actor.subscribe': () => [{ type: 'xstate.error.actor.subscribe', error: new Error('no service worker') }],
    'xstate.done.actor.unsubscribe': () => [{ type: 'xstate.done.actor.unsubscribe', output: undefined }],
    'xstate.error.actor.unsubscribe': () => [{ type: 'xstate.error.actor.unsubscribe', error: new Error('offline') }],
  },
  // The switches and the permission tell states apart; who is signed in and visibility only matter to guards.
  contextKey: (ctx) => {
    const c = ctx as NotificationsContext;
    return { enabled: c.enabled, showText: c.showText, permission: c.permission, pageVisible: c.pageVisible, signedIn: c.userId !== null };
  },
});

/** The machine with recording presenter and prefs, an environment and a permission answer of the test's choice. */
function harness(environment: NotificationEnvironment, answer: 'granted' | 'denied' | 'default' = 'granted', subscribeFails = false) {
  const shown: NotificationPayload[] = [];
  const saved: PrefsCommand[] = [];
  const subscribedWith: boolean[] = [];
  const opened: string[] = [];
  const chats: { type: string; conversationId?: string }[] = [];
  const machine = notificationsMachine.provide({
    actors: {
      session: fromCallback(({ sendBack }) => sendBack({ type: 'notifications.signedIn', userId: 'u1' })) as never,
      pageVisibility: fromCallback(({ sendBack }) => sendBack({ type: 'notifications.visibility', visible: false })) as never,
      serverEvents: silent,
      clicks: silent,
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
      { id: 'chats', systemId: 'chats', src: fromCallback(({ receive }) => receive((e) => chats.push(e as never))) },
      { id: 'n', systemId: 'notifications', src: machine },
    ],
    on: { '*': { actions: sendTo('n', ({ event }) => event) } },
  });
  const root = createActor(parent).start();
  const actor = root.system.get('notifications');
  actor.on('notifications.opened', (e: { conversationId: string }) => opened.push(e.conversationId));
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { actor, shown, saved, subscribedWith, opened, chats, settle, state: () => actor.getSnapshot() };
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
    h.actor.send({ type: 'notifications.message', payload: message });
    h.actor.send({ type: 'notifications.call', payload: call });
    h.actor.send({ type: 'notifications.showText', showText: false });
    await h.settle();
    h.actor.send({ type: 'notifications.message', payload: message });
    expect(h.shown).toEqual([message, call, { ...message, preview: null }]);
    expect(h.subscribedWith).toEqual([true, false]);
    // Visible again: nothing is shown.
    h.actor.send({ type: 'notifications.visibility', visible: true });
    h.actor.send({ type: 'notifications.message', payload: message });
    expect(h.shown).toHaveLength(3);
  });

  it('denied by the browser: nothing shown, the switch stays off', async () => {
    const h = harness(env(), 'denied');
    await h.settle();
    h.actor.send({ type: 'notifications.enable' });
    await h.settle();
    expect(h.state().hasTag('denied')).toBe(true);
    expect(h.state().hasTag('on')).toBe(false);
    h.actor.send({ type: 'notifications.message', payload: message });
    expect(h.shown).toEqual([]);
  });

  it('a failed push subscription keeps notifications for the open tab', async () => {
    const h = harness(env({ enabled: true, permission: 'granted' }), 'granted', true);
    await h.settle();
    await h.settle();
    expect(h.state().hasTag('pushFailed')).toBe(true);
    h.actor.send({ type: 'notifications.message', payload: message });
    expect(h.shown).toEqual([message]);
  });

  it('a clicked message notification opens its conversation in the chats actor and tells the view', async () => {
    const h = harness(env());
    await h.settle();
    h.actor.send({ type: 'notifications.clicked', kind: 'message', conversationId: 'c7' });
    h.actor.send({ type: 'notifications.clicked', kind: 'call', conversationId: 'c8' });
    expect(h.chats).toEqual([{ type: 'chats.open', conversationId: 'c7' }]);
    expect(h.opened).toEqual(['c7']);
  });
});
