// The chats feature's actors (the list, the selection, the address, the chats page's layout, footer and menu) as the
// app registers them: each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates
// every feature's lines; their effects are the feature's own (src/services/chats/effects.ts); src/machines/README.md
// explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { chatsMachine } from './chats/chats.machine';
import { chatsFooterMachine } from './chatsFooter/chatsFooter.machine';
import { chatsLayoutMachine } from './chatsLayout/chatsLayout.machine';
import { conversationLoaderMachine } from './conversationLoader/conversationLoader.machine';
import { navigationMachine } from './navigation/navigation.machine';

export const chatsActors = {
  chats: { machine: chatsMachine, lifetime: 'session', systemId: true },
  // The address and the open conversation in step (it hears the chats actor's selections).
  navigation: { machine: navigationMachine, lifetime: 'session', systemId: true },
  chatsFooter: { machine: chatsFooterMachine, lifetime: 'owned', owner: 'view' },
  chatsLayout: { machine: chatsLayoutMachine, lifetime: 'owned', owner: 'view' },
  // The list's menu: its code loads once the list is shown.
  chatActions: { load: 'wired', lifetime: 'owned', owner: 'view' },
  // The quick switcher (Ctrl/⌘+K): its code comes with the keyboard's views, after the list's first paint.
  quickSwitcher: {
    load: () => import('./quickSwitcher/quickSwitcher.machine').then((m) => m.quickSwitcherMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  // Owned by the chats actor: fetches the open conversation's code and runs the conversation.
  conversationLoader: { machine: conversationLoaderMachine, lifetime: 'owned', owner: 'chats' },
} as const satisfies ActorLines;
