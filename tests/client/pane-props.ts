// Props of the conversation pane for tests that render it without the message list (an empty or loading history).
import type { ConversationViewProps } from '../../src/ui/conversation/ConversationView';

const avatar = { face: { kind: 'initials' as const, text: 'Б' }, colour: '#2f57d1', presence: 'online' as const };

/** The pane with an empty history (the message list is not drawn) and what the test sets. */
export function paneProps(over: Partial<ConversationViewProps> = {}): ConversationViewProps {
  const noop = () => {};
  return {
    status: 'ready',
    header: { title: 'Борис', avatar, status: 'ОНЛАЙН', online: true },
    rows: [],
    typing: { text: '', dots: 1 },
    composer: {
      text: '',
      reply: null,
      uploadProgress: null,
      onText: noop,
      onSubmit: noop,
      onClearReply: noop,
      onAttach: noop,
    },
    lightbox: null,
    onCloseLightbox: noop,
    onCall: noop,
    onReply: noop,
    onRetryLoad: noop,
    ...over,
  } as ConversationViewProps;
}
