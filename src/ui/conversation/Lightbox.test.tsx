import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { runtimeWrapper } from '../../../tests/fixtures/runtime-wrapper';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { ViewPortsProvider } from '../app/RuntimeContext';
import { Lightbox, LightboxView, type LightboxViewProps } from './Lightbox';

const items = [
  { url: '/uploads/a.png', name: 'море.png' },
  { url: '/uploads/b.png' },
  { url: '/uploads/c.png', name: 'горы.jpg' },
];

function viewProps(over: Partial<LightboxViewProps> = {}): LightboxViewProps {
  return {
    item: items[0],
    index: 0,
    count: 3,
    zoom: 1,
    canZoomIn: true,
    canZoomOut: true,
    next: vi.fn(),
    previous: vi.fn(),
    zoomIn: vi.fn(),
    zoomOut: vi.fn(),
    zoomReset: vi.fn(),
    close: vi.fn(),
    ...over,
  };
}

describe('LightboxView (from props)', () => {
  it('is a labelled modal dialog with the image, its position and Russian-labelled controls', () => {
    render(<LightboxView {...viewProps({ zoom: 1.25 })} />);
    const dialog = screen.getByRole('dialog', { name: 'Просмотр изображения' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('img', { name: 'море.png' })).toHaveAttribute('src', '/uploads/a.png');
    expect(screen.getByRole('img')).toHaveStyle({ transform: 'scale(1.25)' });
    expect(screen.getByText('море.png · 1 из 3')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Текущий масштаб' })).toHaveTextContent('125 %');
    for (const name of [
      'Закрыть',
      'Уменьшить',
      '100\u00a0%',
      'Увеличить',
      'Предыдущее изображение',
      'Следующее изображение',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('group', { name: 'Масштаб' })).toBeInTheDocument();
  });

  it('calls back for every button, and for Escape, arrows, + − 0', async () => {
    const p = viewProps();
    render(<LightboxView {...p} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Следующее изображение' }));
    await user.click(screen.getByRole('button', { name: 'Предыдущее изображение' }));
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    await user.click(screen.getByRole('button', { name: 'Уменьшить' }));
    await user.click(screen.getByRole('button', { name: '100\u00a0%' }));
    await user.click(screen.getByRole('button', { name: 'Закрыть' }));
    for (const f of [p.next, p.previous, p.zoomIn, p.zoomOut, p.zoomReset, p.close]) expect(f).toHaveBeenCalledTimes(1);

    await user.keyboard('{ArrowRight}{ArrowLeft}+-0{Escape}');
    for (const f of [p.next, p.previous, p.zoomIn, p.zoomOut, p.zoomReset, p.close]) expect(f).toHaveBeenCalledTimes(2);
  });

  it('closes on a click on the backdrop, not on the image', async () => {
    const p = viewProps();
    const { container } = render(<LightboxView {...p} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('img'));
    expect(p.close).not.toHaveBeenCalled();
    await user.click(container.querySelector('.lightbox-stage')!);
    expect(p.close).toHaveBeenCalledTimes(1);
  });

  it('marks zoom buttons unavailable at the bounds without taking them out of the tab order', () => {
    render(<LightboxView {...viewProps({ zoom: 4, canZoomIn: false })} />);
    const plus = screen.getByRole('button', { name: 'Увеличить' });
    expect(plus).toHaveAttribute('aria-disabled', 'true');
    expect(plus).not.toBeDisabled();
    expect(screen.getByRole('button', { name: 'Уменьшить' })).toHaveAttribute('aria-disabled', 'false');
  });

  it('has no previous/next and no position for a single image', () => {
    render(<LightboxView {...viewProps({ count: 1, item: { url: '/x.png' } })} />);
    expect(screen.queryByRole('button', { name: 'Следующее изображение' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Изображение' })).toBeInTheDocument();
  });
});

/** The lightbox as the message list uses it: opened from an image button, unmounted by onClose. */
function Harness(props: { onClose?: () => void }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(2)}>
        Открыть горы
      </button>
      {open !== null && (
        <Lightbox
          items={items}
          index={open}
          onClose={() => {
            props.onClose?.();
            setOpen(null);
          }}
        />
      )}
    </>
  );
}

describe('Lightbox (with its statechart)', () => {
  it('opens on the given image, wraps with the arrows, zooms in steps and resets on another image', async () => {
    render(<Harness />, { wrapper: runtimeWrapper().wrapper });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Открыть горы' }));
    expect(screen.getByRole('img', { name: 'горы.jpg' })).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    // The lightbox's machine loads on demand: a key pressed before it runs waits for it (useOwnedActor queues it),
    // so the first step is awaited; once it has run, each step shows at once.
    expect(await screen.findByRole('img', { name: 'море.png' }, { timeout: 10_000 })).toBeInTheDocument(); // 3 → 1
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('img', { name: 'горы.jpg' })).toBeInTheDocument(); // 1 → 3
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    await user.click(screen.getByRole('button', { name: 'Увеличить' }));
    expect(screen.getByRole('status')).toHaveTextContent('150 %');
    expect(screen.getByTestId('lightbox')).toHaveAttribute('data-zoom', '1.5');
    await user.click(screen.getByRole('button', { name: 'Предыдущее изображение' }));
    expect(screen.getByRole('img', { name: 'Изображение 2 из 3' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('100 %');
    for (let i = 0; i < 5; i++) await user.click(screen.getByRole('button', { name: 'Уменьшить' }));
    expect(screen.getByRole('status')).toHaveTextContent('25 %');
    expect(screen.getByRole('button', { name: 'Уменьшить' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: '100\u00a0%' }));
    expect(screen.getByRole('status')).toHaveTextContent('100 %');
  });

  it('takes the focus, keeps Tab inside, and gives the focus back to the opener on Escape', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />, { wrapper: runtimeWrapper().wrapper });
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Открыть горы' });
    await user.click(opener);
    const close = screen.getByRole('button', { name: 'Закрыть' });
    expect(close).toHaveFocus();
    // Tab from the last control wraps to the first, Shift+Tab from the first to the last.
    const next = screen.getByRole('button', { name: 'Следующее изображение' });
    next.focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Уменьшить' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(next).toHaveFocus();
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    // As above: the close waits for the machine's code if it is still on its way.
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('Escape inside the lightbox does not reach handlers under it', async () => {
    const outer = vi.fn();
    document.addEventListener('keydown', outer);
    render(<Harness />, { wrapper: runtimeWrapper().wrapper });
    act(() => screen.getByRole('button', { name: 'Открыть горы' }).click());
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    // The machine's code may still be on its way (it loads when a picture is first opened): the Escape waits for it.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outer).not.toHaveBeenCalled();
    document.removeEventListener('keydown', outer);
  });
});

describe('Lightbox with a secret chat’s pictures', () => {
  const secretPicture = (n: number, name: string): SecretAttachment => ({
    url: `/api/secret/uploads/${n}`,
    key: 'k',
    iv: 'iv',
    name,
    type: 'image/png',
    size: 3,
  });
  const pictures = [secretPicture(1, 'закат.png'), secretPicture(2, 'порт.png'), secretPicture(3, 'испорчен.png')];
  const secretItems = pictures.map((a) => ({ url: a.url, name: a.name, secret: a }));

  it('shows each one decrypted on this device, lets the last go when it moves on or closes, and says when one cannot be read', async () => {
    // The port decrypts (the services' own tests cover how): bytes for the first two, a failure for the third.
    const asked: string[] = [];
    const openSecretAttachment = (a: SecretAttachment) => {
      asked.push(a.url);
      return a.name === 'испорчен.png'
        ? Promise.reject(new Error('OperationError'))
        : Promise.resolve(new Blob([new Uint8Array([1, 2, 3])], { type: a.type }));
    };
    const made: string[] = [];
    const revoked: string[] = [];
    URL.createObjectURL = vi.fn(() => {
      made.push(`blob:test/${made.length + 1}`);
      return made.at(-1) as string;
    });
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
    const { wrapper: Runtime } = runtimeWrapper();
    const onClose = vi.fn();
    const view = render(
      <Runtime>
        <ViewPortsProvider value={{ openSecretAttachment }}>
          <Lightbox items={secretItems} index={1} onClose={onClose} />
        </ViewPortsProvider>
      </Runtime>,
    );
    // The server's address is ciphertext: never put in the picture.
    expect((await screen.findByRole('img', { name: 'порт.png' })).getAttribute('src')).toBe('blob:test/1');
    expect(asked).toEqual(['/api/secret/uploads/2']);
    const user = userEvent.setup();
    await user.keyboard('{ArrowLeft}');
    expect((await screen.findByRole('img', { name: 'закат.png' })).getAttribute('src')).toBe('blob:test/2');
    expect(revoked).toEqual(['blob:test/1']);
    await user.keyboard('{ArrowLeft}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось расшифровать вложение');
    expect(screen.queryByRole('img')).toBeNull();
    await user.keyboard('{ArrowLeft}');
    await screen.findByRole('img', { name: 'порт.png' });
    view.unmount();
    await waitFor(() => expect(revoked).toEqual(['blob:test/1', 'blob:test/2', 'blob:test/3']));
  });
});
