// The composer feature's actors (the draft, the outbox, voice recording and the send preview) as the app registers
// them: each line says what the actor is and how long it lives. src/machines/app/registry.ts concatenates every
// feature's lines; their effects are the feature's own (src/services/composer/effects.ts); src/machines/README.md
// explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { composerMachine } from './composer/composer.machine';
import { draftsMachine } from './drafts/drafts.machine';
import { outboxMachine } from './outbox/outbox.machine';
import { recorderMachine } from './recorder/recorder.machine';

export const composerActors = {
  // The draft and one outbox per user (it follows the chats actor's selections).
  composer: { machine: composerMachine, lifetime: 'session', systemId: true },
  // The open conversation's send preview and mention picker: their code comes with the pane.
  sendPreview: {
    load: () => import('./sendPreview/sendPreview.machine').then((m) => m.sendPreviewMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  // The thread panel's own send preview (the panel and the conversation pane are on screen together).
  threadSendPreview: {
    load: () => import('./sendPreview/sendPreview.machine').then((m) => m.sendPreviewMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  mentionPicker: {
    load: () => import('./mentionPicker/mentionPicker.machine').then((m) => m.mentionPickerMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  // The thread panel's own «@» list (its composer is on screen beside the pane's).
  threadMentionPicker: {
    load: () => import('./mentionPicker/mentionPicker.machine').then((m) => m.mentionPickerMachine),
    lifetime: 'owned',
    owner: 'view',
  },
  recorder: { machine: recorderMachine, lifetime: 'child', owner: 'composer', systemId: true },
  outbox: { machine: outboxMachine, lifetime: 'child', owner: 'composer' },
  drafts: { machine: draftsMachine, lifetime: 'child', owner: 'composer' },
} as const satisfies ActorLines;
