// The public face of the composer feature: other features import only this module, src/ui/composer/index.ts (its views) and its
// *.protocol.ts files.
export { composerMachine } from './composer/composer.machine';
export type { ComposerActorRef } from './composer/composer.machine';
export { outboxMachine } from './outbox/outbox.machine';
export { draftsMachine } from './drafts/drafts.machine';
export { UPLOAD_FAILED, itemProgress, newOutboxTag } from './outbox/outbox-item';
export type { OutboxItem } from './outbox/outbox-item';
export { MIC_FAILED, recorderMachine } from './recorder/recorder.machine';
export type { RecordingCommand, RecordingReport } from './recorder/recorder.machine';
