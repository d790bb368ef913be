// The link card under a message (LinkPreviewCard.tsx) from props: nothing, the placeholder, the card as a link to
// the page with the server's picture, and «Убрать предпросмотр» for the sender only.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PreviewCardView } from '../../machines/conversation/previewCard/previewCard.protocol';
import { LinkPreviewCard } from './LinkPreviewCard';

const shown = (over: Partial<Extract<PreviewCardView, { state: 'shown' }>> = {}): PreviewCardView => ({
  state: 'shown',
  url: 'https://example.org/a',
  siteName: 'Вестник',
  title: 'Статья о погоде',
  description: 'Дожди и ветер',
  image: { url: '/uploads/previews/0123456789abcdef0123456789abcdef', width: 40, height: 20 },
  removable: false,
  busy: false,
  error: null,
  ...over,
});

describe('the link card', () => {
  it('draws nothing for a failed or removed card, and a placeholder while the server fetches', () => {
    const { container, rerender } = render(<LinkPreviewCard view={{ state: 'none' }} onRemove={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<LinkPreviewCard view={{ state: 'loading', url: 'https://example.org/a' }} onRemove={vi.fn()} />);
    expect(screen.getByTestId('link-card-loading')).toHaveAttribute('aria-hidden', 'true');
  });

  it('links the page, shows the server’s copy of the picture, and offers no removal to other members', () => {
    render(<LinkPreviewCard view={shown()} onRemove={vi.fn()} />);
    const link = screen.getByRole('link', { name: /Статья о погоде/ });
    expect(link).toHaveAttribute('href', 'https://example.org/a');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link.querySelector('img')).toHaveAttribute('src', '/uploads/previews/0123456789abcdef0123456789abcdef');
    expect(screen.getByText('Вестник')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Убрать предпросмотр' })).toBeNull();
  });

  it('offers «Убрать предпросмотр» to the sender, disabled while under way, with the reason of a refusal', () => {
    const onRemove = vi.fn();
    const { rerender } = render(<LinkPreviewCard view={shown({ removable: true })} onRemove={onRemove} />);
    fireEvent.click(screen.getByRole('button', { name: 'Убрать предпросмотр' }));
    expect(onRemove).toHaveBeenCalledOnce();
    rerender(<LinkPreviewCard view={shown({ removable: true, busy: true })} onRemove={onRemove} />);
    expect(screen.getByRole('button', { name: 'Убрать предпросмотр' })).toBeDisabled();
    rerender(<LinkPreviewCard view={shown({ removable: true, error: 'Нет связи' })} onRemove={onRemove} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Нет связи');
  });

  it('never links anything but http(s)', () => {
    const { container } = render(<LinkPreviewCard view={shown({ url: 'javascript:alert(1)' })} onRemove={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });
});
