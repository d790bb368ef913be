// The thread panel's composer: «Прикрепить» hands the picked files over, they are listed with «Убрать …» and the
// upload's progress; «Ответить» on a reply sets the quote, «Отменить ответ» drops it; «Эмодзи» opens the picker and
// a pick goes into the text; files alone can be sent. The replies show their pictures, files and quotes.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { ThreadPanel } from './ThreadPanel';
import type { ThreadMessageView, ThreadPanelProps } from './useThreadPanel';

const row = (id: string, extra: Partial<ThreadMessageView> = {}): ThreadMessageView => ({
  id,
  sender: { id: 'u2', displayName: 'Борис', avatarUrl: null },
  own: false,
  text: `Ответ ${id}`,
  time: '10:00',
  attachments: [],
  reply: null,
  ...extra,
});

function props(over: Partial<ThreadPanelProps> = {}): ThreadPanelProps {
  return {
    status: 'ready',
    root: row('r1'),
    count: '2 ответа',
    rows: [
      row('a', {
        text: '',
        attachments: [
          { url: '/uploads/a.png', kind: 'IMAGE', name: 'схема.png' },
          { url: '/uploads/b.txt', kind: 'FILE', name: 'план.txt' },
        ],
      }),
      row('b', { reply: { id: 'a', preview: 'Изображение' } }),
    ],
    found: null,
    hasMore: false,
    loadingMore: false,
    sending: false,
    busy: false,
    following: false,
    draft: '',
    error: null,
    files: [],
    uploading: false,
    progress: null,
    quote: null,
    onMore: vi.fn(),
    onText: vi.fn(),
    onSend: vi.fn(),
    onAttach: vi.fn(),
    onDetach: vi.fn(),
    onQuote: vi.fn(),
    onFollow: vi.fn(),
    onRetry: vi.fn(),
    onClose: vi.fn(),
    ...over,
  };
}

it('replies show their pictures, files and quotes; «Ответить» quotes a reply, never the root', () => {
  const p = props();
  render(<ThreadPanel {...p} />);
  expect(screen.getByRole('img', { name: 'схема.png' })).toHaveAttribute('src', '/uploads/a.png');
  expect(screen.getByRole('link', { name: 'Файл: план.txt' })).toHaveAttribute('href', '/uploads/b.txt');
  expect(screen.getByText('Ответ на:')).toBeInTheDocument();
  expect(screen.getByTestId('thread-root')).not.toHaveTextContent('Ответить');
  fireEvent.click(screen.getAllByRole('button', { name: 'Ответить' })[1] as HTMLElement);
  expect(p.onQuote).toHaveBeenCalledWith('b');
});

it('«Прикрепить» hands the picked files over; the picked ones can be removed and sent without text', () => {
  const p = props({ files: ['план.txt'], progress: null });
  render(<ThreadPanel {...p} />);
  expect(screen.getByRole('button', { name: 'Прикрепить' })).toBeEnabled();
  const file = new File(['x'], 'отчёт.pdf');
  fireEvent.change(screen.getByTestId('thread-attach-input'), { target: { files: [file] } });
  expect(p.onAttach).toHaveBeenCalledWith([file]);
  fireEvent.click(screen.getByRole('button', { name: 'Убрать план.txt' }));
  expect(p.onDetach).toHaveBeenCalledWith(0);
  const send = screen.getByRole('button', { name: 'Отправить' });
  expect(send).toBeEnabled();
  fireEvent.click(send);
  expect(p.onSend).toHaveBeenCalled();
});

it('nothing typed nor picked: nothing to send; an upload shows its progress and locks the composer', () => {
  const { rerender } = render(<ThreadPanel {...props()} />);
  expect(screen.getByRole('button', { name: 'Отправить' })).toBeDisabled();
  rerender(<ThreadPanel {...props({ files: ['план.txt'], sending: true, uploading: true, progress: 40 })} />);
  expect(screen.getByRole('progressbar', { name: 'Загрузка файлов' })).toHaveAttribute('value', '40');
  expect(screen.getByRole('button', { name: 'Прикрепить' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Отправить' })).toBeDisabled();
});

it('the quote is shown above the text and «Отменить ответ» drops it', () => {
  const p = props({ quote: { id: 'b', preview: 'Ответ b' } });
  render(<ThreadPanel {...p} />);
  expect(screen.getByText('Ответ b', { selector: '.thread-quote .msg-reply-text' })).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Отменить ответ' }));
  expect(p.onQuote).toHaveBeenCalledWith(null);
});

it('«Эмодзи» opens the shared picker', async () => {
  render(<ThreadPanel {...props()} />);
  const button = screen.getByRole('button', { name: 'Эмодзи' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  fireEvent.click(button);
  // The picker loads on demand.
  await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'true'));
});
