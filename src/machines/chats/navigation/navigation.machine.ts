// Keeps the open conversation and the address in step (docs/behaviour.md §10.17): `/c/<id>` is an open
// conversation, `/` the list. The address leads: a reload, Back/Forward or a link opens what it names (the chats
// actor is told), and leaving `/c/<id>` for `/` closes it. A selection made elsewhere (a notification, «Написать»
// on the contacts page, a search result, a new group) moves the address to it; a conversation closed by the app
// (removed, left) takes the address back to `/` in place. Other pages (`/contacts`, …) leave the selection alone.
import { assign, enqueueActions, setup } from 'xstate';
import { notWiredCallback } from '../../shared/not-wired';
import { chatsInbox } from '../chats/chats.protocol';
import {
  conversationOfPath,
  conversationPath,
  isListPath,
  type NavigationContext,
  type NavigationEffects,
  type NavigationEvent,
  type RouterCommand,
} from './navigation.protocol';

export * from './navigation.protocol';

export const navigationMachine = setup({
  types: {
    context: {} as NavigationContext,
    events: {} as NavigationEvent,
    children: {} as { router: 'router'; selections: 'selections'; pageTitle: 'pageTitle' },
  },
  actors: {
    router: notWiredCallback('navigation.router') as NavigationEffects['router'],
    selections: notWiredCallback('navigation.selections') as NavigationEffects['selections'],
    pageTitle: notWiredCallback('navigation.pageTitle') as NavigationEffects['pageTitle'],
  },
  guards: {
    toConversation: ({ event }) => event.type === 'nav.location' && conversationOfPath(event.path) !== null,
    toList: ({ event }) => event.type === 'nav.location' && isListPath(event.path),
    /** A selection the address does not show yet. */
    selectedElsewhere: ({ context, event }) =>
      event.type === 'nav.selected' &&
      event.conversationId !== null &&
      conversationOfPath(context.path) !== event.conversationId,
    closed: ({ event }) => event.type === 'nav.selected' && event.conversationId === null,
    fromList: ({ context }) => context.fromList,
    hasLast: ({ context }) => context.lastId !== null,
  },
  actions: {
    notePath: assign({ path: ({ context, event }) => (event.type === 'nav.location' ? event.path : context.path) }),
    noteSelection: assign({
      selectedId: ({ context, event }) => (event.type === 'nav.selected' ? event.conversationId : context.selectedId),
    }),
    // The address names a conversation the chats actor does not have open: it opens it.
    openNamed: enqueueActions(({ context, event, system, enqueue }) => {
      if (event.type !== 'nav.location') return;
      const id = conversationOfPath(event.path);
      const chats = chatsInbox(system);
      if (id && chats && id !== context.selectedId) enqueue.sendTo(chats, { type: 'chats.open', conversationId: id });
    }),
    closeOpen: enqueueActions(({ context, system, enqueue }) => {
      const chats = chatsInbox(system);
      if (chats && context.selectedId !== null) enqueue.sendTo(chats, { type: 'chats.close' });
    }),
    rememberOpen: assign({ lastId: ({ context }) => context.selectedId ?? context.lastId }),
    markFromList: assign({ fromList: true }),
    clearFromList: assign({ fromList: false }),
    goToSelected: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'nav.selected' || event.conversationId === null) return;
      const go: RouterCommand = { type: 'router.go', path: conversationPath(event.conversationId), replace: false };
      enqueue.sendTo('router', go);
    }),
    replaceWithList: enqueueActions(({ enqueue }) => {
      const go: RouterCommand = { type: 'router.go', path: '/', replace: true };
      enqueue.sendTo('router', go);
    }),
    goBack: enqueueActions(({ enqueue }) => {
      const back: RouterCommand = { type: 'router.back' };
      enqueue.sendTo('router', back);
    }),
    goToLast: enqueueActions(({ context, enqueue }) => {
      if (!context.lastId) return;
      const go: RouterCommand = { type: 'router.go', path: conversationPath(context.lastId), replace: false };
      enqueue.sendTo('router', go);
    }),
  },
}).createMachine({
  id: 'navigation',
  context: { path: '', selectedId: null, lastId: null, fromList: false },
  invoke: [
    { id: 'router', src: 'router' },
    { id: 'selections', src: 'selections' },
    { id: 'pageTitle', src: 'pageTitle' },
  ],
  initial: 'starting',
  on: {
    'nav.selected': [
      { guard: 'selectedElsewhere', actions: ['noteSelection', 'goToSelected'] },
      { actions: 'noteSelection' },
    ],
  },
  states: {
    // Until the router reports where it is.
    starting: {
      on: {
        'nav.location': [
          { guard: 'toConversation', target: 'conversation', actions: ['notePath', 'openNamed'] },
          { guard: 'toList', target: 'list', actions: ['notePath', 'closeOpen'] },
          { target: 'elsewhere', actions: 'notePath' },
        ],
      },
    },
    list: {
      on: {
        'nav.location': [
          { guard: 'toConversation', target: 'conversation', actions: ['notePath', 'openNamed', 'markFromList'] },
          { guard: 'toList', actions: 'notePath' },
          { target: 'elsewhere', actions: 'notePath' },
        ],
        'nav.forward': { guard: 'hasLast', actions: 'goToLast' },
      },
    },
    conversation: {
      on: {
        'nav.location': [
          { guard: 'toConversation', target: 'conversation', actions: ['notePath', 'openNamed'] },
          { guard: 'toList', target: 'list', actions: ['rememberOpen', 'notePath', 'closeOpen', 'clearFromList'] },
          { target: 'elsewhere', actions: ['notePath', 'clearFromList'] },
        ],
        'nav.selected': [
          { guard: 'selectedElsewhere', actions: ['noteSelection', 'goToSelected'] },
          // Closed by the app (left, removed): the address goes back to the list in place.
          { guard: 'closed', actions: ['noteSelection', 'replaceWithList', 'clearFromList'] },
          { actions: 'noteSelection' },
        ],
        // Reached from the list: the browser's Back, so a second Back leaves the app; else the list in place.
        'nav.back': [{ guard: 'fromList', actions: 'goBack' }, { actions: 'replaceWithList' }],
      },
    },
    elsewhere: {
      on: {
        'nav.location': [
          { guard: 'toConversation', target: 'conversation', actions: ['notePath', 'openNamed'] },
          { guard: 'toList', target: 'list', actions: ['notePath', 'closeOpen'] },
          { actions: 'notePath' },
        ],
      },
    },
  },
});
