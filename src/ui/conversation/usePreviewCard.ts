// A message's link card (docs/behaviour.md §10.30 Link previews) as plain values for LinkPreviewCard: the open
// conversation's child 'previewCard:<id>', found through the conversation actor the pane provides. Outside a
// conversation pane (a thread's panel, tests) there is none, and nothing is drawn.
import { useSelector } from '@xstate/react';
import { createContext, useCallback, useContext } from 'react';
import { type ConversationRef, previewCardOf } from '../../machines/conversation/conversation/conversation.protocol';
import {
  type PreviewCardRef,
  type PreviewCardView,
  selectPreviewCard,
} from '../../machines/conversation/previewCard/previewCard.protocol';

export const PreviewCardsContext = createContext<ConversationRef | null>(null);

const NONE: PreviewCardView = { state: 'none' };
const idle = { getSnapshot: () => undefined, subscribe: () => ({ unsubscribe() {} }) };

const sameView = (a: PreviewCardView, b: PreviewCardView) =>
  a === b || (a.state === b.state && JSON.stringify(a) === JSON.stringify(b));

export function usePreviewCard(messageId: string): { view: PreviewCardView; remove(): void } {
  const conversation = useContext(PreviewCardsContext);
  const card = useSelector((conversation ?? idle) as ConversationRef, previewCardOf(messageId));
  const view = useSelector((card ?? idle) as PreviewCardRef, (s) => (s ? selectPreviewCard(s) : NONE), sameView);
  const remove = useCallback(() => card?.send({ type: 'preview.remove' }), [card]);
  return { view, remove };
}
