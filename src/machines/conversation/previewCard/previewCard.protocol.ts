// A link card under a message (docs/behaviour.md §10.30 Link previews; the conversation actor's children
// 'previewCard:<messageId>', one per message with a card). It shows what the message's preview is now: `loading`
// while the server fetches the page, `shown`, `failed` (nothing to show) or `removed`; the sender's «Убрать
// предпросмотр» asks the server and ends in `removed` for everyone (message:preview with no card).
// Peers and views import this module, never previewCard.machine.ts.
import type { LinkPreview } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export interface PreviewCardInput {
  messageId: string;
  preview: LinkPreview;
  /** The user sent the message: only they may remove the card. */
  mine: boolean;
}

export interface PreviewCardContext extends PreviewCardInput {
  /** Why the last «Убрать предпросмотр» failed (the server's words); null when it did not. */
  error: string | null;
}

export type PreviewCardEvent =
  /** The server's card for the message now (message:preview, or a page that has it). */
  | { type: 'preview.arrived'; preview: LinkPreview }
  /** The card is gone for everyone (the sender removed it, here or elsewhere). */
  | { type: 'preview.removed' }
  /** The sender's «Убрать предпросмотр». */
  | { type: 'preview.remove' };

export type PreviewCardRef = MachineRef<PreviewCardContext, PreviewCardEvent>;

/** The child id of a message's card in the conversation actor. */
export const previewCardId = (messageId: string) => `previewCard:${messageId}` as const;

export const REMOVE_PREVIEW = 'Убрать предпросмотр';
export const REMOVE_PREVIEW_FAILED = 'Не удалось убрать предпросмотр';

/** What the card view draws: nothing, a placeholder while loading, or the card. */
export type PreviewCardView =
  | { state: 'none' }
  | { state: 'loading'; url: string }
  | {
      state: 'shown';
      url: string;
      siteName: string | null;
      title: string | null;
      description: string | null;
      image: LinkPreview['image'];
      /** «Убрать предпросмотр» is offered (the sender) and whether it is under way. */
      removable: boolean;
      busy: boolean;
      error: string | null;
    };

export function selectPreviewCard(s: { context: PreviewCardContext; hasTag(tag: string): boolean }): PreviewCardView {
  const { preview, mine, error } = s.context;
  if (s.hasTag('loading')) return { state: 'loading', url: preview.url };
  if (!s.hasTag('shown')) return { state: 'none' };
  return {
    state: 'shown',
    url: preview.url,
    siteName: preview.siteName,
    title: preview.title,
    description: preview.description,
    image: preview.image,
    removable: mine,
    busy: s.hasTag('busy'),
    error,
  };
}

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface PreviewCardEffects {
  removePreview: PromiseActorLogic<{ ok: true }, { messageId: string }>;
}
