// The thread panel's replies and composer: pictures open the lightbox, files download, a reply's menu offers
// «Цитировать» (the root has none); own replies on their way show their progress, failed ones «Повторить» and
// «Удалить»; the composer is the main one (Enter sends, picked files go to the send preview, the quote's banner with
// «Отменить ответ», «Эмодзи»), and the preview's «Отправить» sends the files to the thread.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { threadPanelProps as props, threadRow as row } from '../../../tests/client/thread-panel-props';
import { EditHistoryContext } from '../conversation/deferred';
import { ThreadPanel } from './ThreadPanel';

const withFiles = [
  row('a', {
    text: '',
    attachments: [
      { url: '/uploads/a.png', kind: 'IMAGE', name: 'схема.png' },
      { url: '/uploads/b.txt', kind: 'FILE', name: 'план.txt' },
    ],
  }),
  row('b', { reply: { id: 'a', preview: 'Изображение' } }),
];

it('replies show their quotes and files; a picture opens the lightbox; «Цитировать» in a reply’s menu', async () => {
  const p = props({ rows: withFiles });
  render(<ThreadPanel {...p} />);
  expect(screen.getByRole('img', { name: 'схема.png' })).toHaveAttribute('src', '/uploads/a.png');
  fireEvent.click(screen.getByRole('button', { name: 'Открыть изображение схема.png' }));
  expect(p.onOpenImage).toHaveBeenCalledWith('/uploads/a.png');
  expect(screen.getByRole('link', { name: 'Файл: план.txt' })).toHaveAttribute('href', '/uploads/b.txt');
  expect(screen.getByText('Ответ на:')).toBeInTheDocument();
  // The root is not of the thread: it has no menu here.
  expect(screen.getAllByRole('button', { name: 'Действия с сообщением' })).toHaveLength(2);
  fireEvent.click(screen.getAllByRole('button', { name: 'Действия с сообщением' })[1] as HTMLElement);
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Цитировать' }));
  expect(p.onQuote).toHaveBeenCalledWith('b');
});

it('an own reply on its way shows its upload; a failed one says why with «Повторить» and «Удалить»', () => {
  const pending = (id: string, failed: boolean, extra = {}) =>
    row(id, { own: true, pending: { outboxId: id, failed, error: null, progress: null, ...extra } });
  const p = props({
    rows: [
      pending('tmp-1', false, { progress: 40 }),
      pending('tmp-2', true, { error: 'Файл больше 1 МБ — такие файлы не отправляются' }),
    ],
  });
  render(<ThreadPanel {...p} />);
  expect(screen.getByText('Загрузка файлов… 40%')).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent('Не отправлено: Файл больше 1 МБ');
  fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
  expect(p.onRetryReply).toHaveBeenCalledWith('tmp-2');
  fireEvent.click(screen.getByRole('button', { name: 'Удалить' }));
  expect(p.onRemoveReply).toHaveBeenCalledWith('tmp-2');
  // A reply on its way has no menu yet.
  expect(screen.queryByRole('button', { name: 'Действия с сообщением' })).toBeNull();
});

it('the composer is the main one: Enter sends, files are picked, the quote shows and can be dropped', () => {
  const base = props();
  const p = props({ composer: { ...base.composer, text: 'Согласен', reply: { preview: 'Ответ b' } } });
  render(<ThreadPanel {...p} />);
  const input = screen.getByRole('textbox', { name: 'Сообщение' });
  fireEvent.keyDown(input, { key: 'Enter' });
  expect(p.composer.onSubmit).toHaveBeenCalled();
  const file = new File(['x'], 'отчёт.pdf');
  fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [file] } });
  expect(p.composer.onAttach).toHaveBeenCalledWith([file]);
  expect(screen.getByTestId('reply-banner')).toHaveTextContent('Ответ b');
  fireEvent.click(screen.getByRole('button', { name: 'Отменить ответ' }));
  expect(p.composer.onClearReply).toHaveBeenCalled();
});

it('the send preview’s «Отправить» sends the files to the thread', () => {
  const base = props();
  const p = props({ preview: { ...base.preview, open: true, files: [new File(['x'], 'план.txt')] } });
  render(<ThreadPanel {...p} />);
  fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Отправить' }));
  expect(p.onSendPreview).toHaveBeenCalled();
});

it('a voice reply plays in the timeline’s player; the microphone is offered while nothing is typed', async () => {
  const base = props();
  const onStart = vi.fn();
  const voice = { url: '/uploads/v.webm', durationMs: 3000, waveform: [10, 80] };
  const p = props({
    rows: [row('v', { text: '', voice })],
    composer: { ...base.composer, recorder: { panel: null, onStart } },
  });
  render(<ThreadPanel {...p} />);
  expect(await screen.findByRole('button', { name: 'Воспроизвести голосовое сообщение' })).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Записать голосовое сообщение' }));
  expect(onStart).toHaveBeenCalled();
});

it('«Эмодзи» opens the shared picker', async () => {
  render(<ThreadPanel {...props()} />);
  const button = screen.getByRole('button', { name: 'Эмодзи' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  fireEvent.click(button);
  // The picker loads on demand.
  await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'true'));
});

it('a reply shows its formatting and mentions as the timeline does, and «изменено» opens its history', async () => {
  const open = vi.fn();
  const p = props({
    rows: [
      row('f', {
        text: 'план на завтра',
        entities: [{ type: 'bold', offset: 0, length: 4 }],
        edited: 'изменено: сегодня в 10:05',
      }),
    ],
  });
  render(
    <EditHistoryContext.Provider value={open}>
      <ThreadPanel {...p} />
    </EditHistoryContext.Provider>,
  );
  // The renderer of formatting loads with the first formatted text.
  expect(await screen.findByText('план', { selector: 'strong' })).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'изменено: сегодня в 10:05. История изменений' }));
  expect(open).toHaveBeenCalledWith('f');
});
