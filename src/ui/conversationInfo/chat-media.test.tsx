import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { runtimeWrapper } from '../../../tests/fixtures/runtime-wrapper';
import type { ChatMediaEntry } from '../../machines/conversationInfo/chatMedia/chatMedia.protocol';
import { ChatMedia } from './ChatMedia';
import type { ChatMediaView } from './useChatMedia';

const entry = (id: string, over: Partial<ChatMediaEntry> = {}): ChatMediaEntry => ({
  messageId: id,
  createdAt: '2026-05-02T10:00:00.000Z',
  senderId: 'u2',
  pictures: [],
  files: [],
  links: [],
  text: '',
  durationMs: null,
  ...over,
});

const props = (over: Partial<ChatMediaView> = {}): ChatMediaView => ({
  tab: 'media',
  entries: [],
  loaded: true,
  more: false,
  loading: false,
  loadingMore: false,
  error: null,
  names: new Map([['u2', 'Анна']]),
  onTab: vi.fn(),
  onMore: vi.fn(),
  onRetry: vi.fn(),
  onJump: vi.fn(),
  ...over,
});

describe('«Медиа», «Файлы», «Ссылки», «Голосовые»', () => {
  it('shows the four tabs, the chosen one selected, and asks for another by click or arrow key', () => {
    const p = props();
    render(<ChatMedia {...p} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Медиа', 'Файлы', 'Ссылки', 'Голосовые']);
    expect(screen.getByRole('tab', { name: 'Медиа' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Ссылки' }));
    expect(p.onTab).toHaveBeenCalledWith('links');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Медиа' }), { key: 'ArrowLeft' });
    expect(p.onTab).toHaveBeenLastCalledWith('voice');
  });

  it('says in Russian that a tab has nothing yet', () => {
    const { rerender } = render(<ChatMedia {...props()} />);
    expect(screen.getByText('Здесь пока нет фото')).toBeVisible();
    rerender(<ChatMedia {...props({ tab: 'files' })} />);
    expect(screen.getByText('Здесь пока нет файлов')).toBeVisible();
    rerender(<ChatMedia {...props({ tab: 'links' })} />);
    expect(screen.getByText('Здесь пока нет ссылок')).toBeVisible();
    rerender(<ChatMedia {...props({ tab: 'voice' })} />);
    expect(screen.getByText('Здесь пока нет голосовых сообщений')).toBeVisible();
    rerender(<ChatMedia {...props({ loaded: false, loading: true })} />);
    expect(screen.queryByText('Здесь пока нет фото')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Загрузка…');
  });

  it('opens the lightbox on the photo chosen', async () => {
    const entries = [
      entry('m2', { pictures: [{ url: '/uploads/b.png', name: 'б.png' }] }),
      entry('m1', { pictures: [{ url: '/uploads/a.png', name: 'а.png' }] }),
    ];
    render(<ChatMedia {...props({ entries })} />, { wrapper: runtimeWrapper().wrapper });
    const thumbs = within(screen.getByTestId('chat-media-media')).getAllByRole('button');
    expect(thumbs[1]).toHaveAccessibleName('Фото от 2 мая 2026 г.: а.png');
    fireEvent.click(thumbs[1] as HTMLElement);
    // The lightbox is its own chunk and actor: its element shows once both are here.
    expect(await screen.findByTestId('lightbox', {}, { timeout: 5000 })).toHaveAttribute('data-index', '1');
  });

  it('jumps to a file’s, a link’s or a voice message’s message, and links open apart', () => {
    const p = props({
      tab: 'links',
      entries: [entry('m5', { links: ['https://example.org/map'], text: 'карта https://example.org/map' })],
    });
    const { rerender } = render(<ChatMedia {...p} />);
    expect(screen.getByRole('link', { name: 'https://example.org/map' })).toHaveAttribute('target', '_blank');
    fireEvent.click(screen.getByRole('button', { name: /показать в чате/ }));
    expect(p.onJump).toHaveBeenCalledWith('m5');
    rerender(<ChatMedia {...p} tab="files" entries={[entry('m6', { files: [{ name: 'список.txt', size: 2048 }] })]} />);
    expect(
      screen.getByRole('button', { name: /список\.txt \(2.*КБ\), Анна · 2 мая 2026 г\.: показать в чате/ }),
    ).toBeVisible();
    rerender(
      <ChatMedia
        {...p}
        tab="voice"
        entries={[entry('m7', { durationMs: 2000, files: [{ name: 'voice.webm', size: 1 }] })]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /Голосовое сообщение 0:02/ }));
    expect(p.onJump).toHaveBeenLastCalledWith('m7');
  });

  it('offers the next page and «Повторить» after a failure', () => {
    const p = props({ tab: 'files', entries: [entry('m1', { files: [{ name: 'а.txt', size: null }] })], more: true });
    const { rerender } = render(<ChatMedia {...p} />);
    fireEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    expect(p.onMore).toHaveBeenCalled();
    rerender(<ChatMedia {...p} error="Не удалось загрузить. Проверьте подключение." />);
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить. Проверьте подключение.');
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(p.onRetry).toHaveBeenCalled();
  });
});
