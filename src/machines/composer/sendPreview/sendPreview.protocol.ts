// The preview before pictures and files are sent (registry line 'sendPreview', alive while a conversation pane is shown):
// files picked, dropped or pasted gather here with a caption («Подпись») and an order; «Отправить» hands them to the
// composer as one message, «Отмена» drops them. Views import this module, never sendPreview.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';

/** A file as picked, dropped or pasted. */
export type PickedFile = Blob & { name?: string };

export interface SendPreviewContext {
  files: PickedFile[];
  caption: string;
}

export type SendPreviewEvent =
  | { type: 'preview.add'; files: PickedFile[] }
  | { type: 'preview.remove'; index: number }
  /** Moves a file one place earlier (-1) or later (+1). */
  | { type: 'preview.move'; index: number; by: -1 | 1 }
  | { type: 'preview.caption'; text: string }
  /** The files went to the composer: the preview closes. */
  | { type: 'preview.sent' }
  | { type: 'preview.cancel' };

/** Tags: 'open'. */
export type SendPreviewRef = MachineRef<SendPreviewContext, SendPreviewEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** Files waiting to be sent with a caption (spawned while a conversation pane is shown). */
    sendPreview: SendPreviewRef;
    /** The same for the thread panel's composer (spawned while the panel is shown). */
    threadSendPreview: SendPreviewRef;
  }
}
