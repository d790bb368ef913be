// Props of the thread panel for view tests: a loaded thread with its root, these replies, and spies for every callback.
import { vi } from 'vitest';
import type { ThreadMessageView, ThreadPanelProps } from '../../src/ui/threads/useThreadPanel';

export const threadRow = (id: string, extra: Partial<ThreadMessageView> = {}): ThreadMessageView => ({
  id,
  sender: { id: 'u2', displayName: 'Борис', avatarUrl: null },
  own: false,
  text: `Ответ ${id}`,
  time: '10:00',
  attachments: [],
  reply: null,
  ...extra,
});

export function threadPanelProps(over: Partial<ThreadPanelProps> = {}): ThreadPanelProps {
  return {
    status: 'ready',
    root: threadRow('r1'),
    count: '2 ответа',
    rows: [threadRow('a'), threadRow('b')],
    found: null,
    hasMore: false,
    loadingMore: false,
    busy: false,
    following: false,
    error: null,
    composer: {
      text: '',
      reply: null,
      uploadProgress: null,
      onText: vi.fn(),
      onSubmit: vi.fn(),
      onClearReply: vi.fn(),
      onAttach: vi.fn(),
    },
    preview: {
      open: false,
      files: [],
      caption: '',
      add: vi.fn(),
      remove: vi.fn(),
      move: vi.fn(),
      setCaption: vi.fn(),
      cancel: vi.fn(),
      sent: vi.fn(),
    },
    onSendPreview: vi.fn(),
    lightbox: null,
    onOpenImage: vi.fn(),
    onCloseLightbox: vi.fn(),
    onRetryReply: vi.fn(),
    onRemoveReply: vi.fn(),
    onMore: vi.fn(),
    onQuote: vi.fn(),
    onFollow: vi.fn(),
    onRetry: vi.fn(),
    onClose: vi.fn(),
    ...over,
  };
}
