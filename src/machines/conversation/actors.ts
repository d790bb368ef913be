// The conversation feature's actors (the open conversation and what it runs) as the app registers them: each line says
// what the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their
// effects are the feature's own (src/services/conversation/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const conversationActors = {
  // Fetched when a picture is first opened full screen: the chat list does not need it.
  lightbox: {
    load: () => import('./lightbox/lightbox.machine').then((m) => m.lightboxMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  // The live regions for screen readers (docs/behaviour.md §10.48), owned by the signed-in layout's Announcer view and
  // fetched after the chat list's first paint.
  announcer: {
    load: () => import('./announcer/announcer.machine').then((m) => m.announcerMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  // Owned by the conversation loader: the selected conversation, its code fetched when one is first opened or about to be.
  conversation: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'conversationLoader',
  },
  readReceipts: {
    load: () => import('./readReceipts/readReceipts.machine').then((m) => m.readReceiptsMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
  messageEdit: {
    load: () => import('./messageEdit/messageEdit.machine').then((m) => m.messageEditMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
  typing: {
    load: () => import('./typing/typing.machine').then((m) => m.typingMachine),
    lifetime: 'child',
    owner: 'conversation',
    systemId: true,
  },
  pins: {
    load: () => import('./pins/pins.machine').then((m) => m.pinsMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
  // One per message with a link card (docs/behaviour.md §10.30 Link previews).
  previewCard: {
    load: () => import('./previewCard/previewCard.machine').then((m) => m.previewCardMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
  pageBack: {
    load: () => import('./pageBack/pageBack.machine').then((m) => m.pageBackMachine),
    lifetime: 'child',
    owner: 'conversation',
  },
} as const satisfies ActorLines;
