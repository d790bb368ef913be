// The public face of the composer feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { composerMachine } from './machines/composer/composer.machine';
export type { ComposerActorRef } from './machines/composer/composer.machine';
export { outboxMachine } from './machines/outbox/outbox.machine';
export { draftsMachine } from './machines/drafts/drafts.machine';
export { UPLOAD_FAILED, itemProgress, newOutboxTag } from './machines/outbox/outbox-item';
export type { OutboxItem } from './machines/outbox/outbox-item';
export { MIC_FAILED, recorderMachine } from './machines/recorder/recorder.machine';
export type { RecordingCommand, RecordingReport } from './machines/recorder/recorder.machine';
export type { SecretFileTransfer, UploadOptions } from './services/upload';
