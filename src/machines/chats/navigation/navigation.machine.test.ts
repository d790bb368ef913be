import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, createMachine, fromCallback, sendTo } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { memoryRouter } from '../../../services/app/router';
import { conversationOfPath, conversationPath, navigationMachine, pageTitle } from './navigation.machine';

const quiet = fromCallback(() => () => {}) as never;

describeModel({
  name: 'navigation',
  machine: navigationMachine.provide({ actors: { router: quiet, selections: quiet, pageTitle: quiet } }),
  events: {
    'nav.location': () => [
      { type: 'nav.location', path: '/' },
      { type: 'nav.location', path: '/c/c1' },
      { type: 'nav.location', path: '/contacts' },
    ],
    'nav.selected': (s) => [
      { type: 'nav.selected', conversationId: s.context.selectedId === 'c2' ? null : 'c2' },
      ...(s.context.selectedId === null ? [] : [{ type: 'nav.selected', conversationId: null }]),
      // The chats actor confirming what the address already shows.
      ...(conversationOfPath(s.context.path)
        ? [{ type: 'nav.selected', conversationId: conversationOfPath(s.context.path) }]
        : []),
    ],
    'nav.back': () => [{ type: 'nav.back' }],
    'nav.forward': () => [{ type: 'nav.forward' }],
  },
});

/** The navigation actor with a router in memory and a stand-in chats actor that records what it is told. */
function setup(start = '/') {
  const router = memoryRouter(start);
  const told: AnyEventObject[] = [];
  const navigation = navigationMachine.provide({
    actors: {
      router: fromCallback(({ sendBack, receive }) => {
        const unsubscribe = router.subscribe((path) => sendBack({ type: 'nav.location', path }));
        sendBack({ type: 'nav.location', path: router.path() });
        receive((c: AnyEventObject) =>
          c.type === 'router.back' ? router.back() : router.go(c.path, { replace: c.replace }),
        );
        return unsubscribe;
      }),
      selections: quiet,
      pageTitle: quiet,
    },
  });
  // The chats stand-in opens and closes as asked and reports it back, as the real one emits chats.selected.
  const root = createMachine({
    invoke: [
      {
        id: 'chats',
        systemId: 'chats',
        src: createMachine({
          on: {
            '*': {
              actions: [
                ({ event }) => told.push(event),
                sendTo(
                  ({ system }) => system.get('navigation'),
                  ({ event }) => ({
                    type: 'nav.selected',
                    conversationId: event.type === 'chats.open' ? event.conversationId : null,
                  }),
                ),
              ],
            },
          },
        }),
      },
      { id: 'navigation', systemId: 'navigation', src: navigation },
    ],
    on: { select: { actions: sendTo('navigation', ({ event }) => ({ ...event, type: 'nav.selected' })) } },
  });
  const app = createActor(root).start();
  const nav = app.system.get('navigation');
  return {
    router,
    told,
    nav: (e: AnyEventObject) => nav.send(e),
    chatsSelects: (conversationId: string | null) => app.send({ type: 'select', conversationId }),
  };
}

describe('the address and the open conversation', () => {
  it('names a conversation by its id and reads it back', () => {
    expect(conversationPath('a b')).toBe('/c/a%20b');
    expect(conversationOfPath('/c/a%20b')).toBe('a b');
    expect(conversationOfPath('/c/x/')).toBe('x');
    expect(conversationOfPath('/contacts')).toBeNull();
    expect(conversationOfPath('/c/%E0%A4')).toBeNull();
  });

  it('counts the unread messages in the tab’s title', () => {
    expect(pageTitle(0)).toBe('Беседа');
    expect(pageTitle(3)).toBe('(3) Беседа');
    expect(pageTitle(150)).toBe('(150) Беседа');
  });

  it('opens the conversation a reload or a link names', () => {
    const t = setup('/c/c7');
    expect(t.told).toEqual([{ type: 'chats.open', conversationId: 'c7' }]);
  });

  it('moves the address to a conversation opened elsewhere; Back closes it, a second Back has nowhere to go', () => {
    const t = setup('/');
    t.chatsSelects('c1');
    expect(t.router.entries()).toEqual(['/', '/c/c1']);
    expect(t.told).toEqual([]); // already open: not opened twice
    t.nav({ type: 'nav.back' });
    expect(t.router.entries()).toEqual(['/']);
    expect(t.told).toEqual([{ type: 'chats.close' }]);
  });

  it('the browser’s Back and Forward open and close what the address names', () => {
    const t = setup('/');
    t.chatsSelects('c1');
    t.chatsSelects('c2');
    expect(t.router.entries()).toEqual(['/', '/c/c1', '/c/c2']);
    t.router.back();
    expect(t.told.at(-1)).toEqual({ type: 'chats.open', conversationId: 'c1' });
    t.router.back();
    expect(t.told.at(-1)).toEqual({ type: 'chats.close' });
  });

  it('a conversation the app closes (left, removed) leaves its address in place for the list', () => {
    const t = setup('/');
    t.chatsSelects('c1');
    t.chatsSelects(null);
    expect(t.router.entries()).toEqual(['/', '/']);
  });

  it('‹ on a conversation reached from another page goes to the list in place', () => {
    const t = setup('/contacts');
    t.chatsSelects('c1');
    expect(t.router.entries()).toEqual(['/contacts', '/c/c1']);
    t.nav({ type: 'nav.back' });
    expect(t.router.entries()).toEqual(['/contacts', '/']);
  });

  it('other pages keep the selection; a left swipe on the list brings the last conversation back', () => {
    const t = setup('/');
    t.chatsSelects('c1');
    t.router.go('/settings');
    expect(t.told).toEqual([]);
    t.router.go('/');
    expect(t.told).toEqual([{ type: 'chats.close' }]);
    t.router.back();
    t.router.back();
    t.router.back();
    expect(t.router.path()).toBe('/');
    t.nav({ type: 'nav.forward' });
    expect(t.router.path()).toBe('/c/c1');
    expect(t.told.at(-1)).toEqual({ type: 'chats.open', conversationId: 'c1' });
  });
});
