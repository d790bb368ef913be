// The public face of the composer feature: other features import only this module, ui/index.ts (its views) and its
// *.protocol.ts files.
export { composerMachine } from './machines/composer/composer.machine';
export type { ComposerActorRef, OutboxStoreCommand, UploadReport } from './machines/composer/composer.machine';
export { UPLOAD_FAILED, itemProgress, newOutboxTag, parseStoredOutbox } from './machines/composer/outbox';
export type { OutboxItem } from './machines/composer/outbox';
export { MIC_FAILED, recorderMachine } from './machines/recorder/recorder.machine';
export type { RecordingCommand, RecordingReport } from './machines/recorder/recorder.machine';
