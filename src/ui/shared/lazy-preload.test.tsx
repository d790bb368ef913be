// Lazy views fetched ahead of need, so they show without a fallback: the call overlay once the realtime connection
// is up (the incoming-call dialog is in the first bundle), the lightbox once images are on screen. Nothing is fetched before that.
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRow } from '../conversation/view-model';
import { LazyCallOverlay } from '../calls/lazy-call-views';
import { ConversationView, LazyLightbox } from '../conversation/ConversationView';
import { paneProps } from '../../../tests/client/pane-props';
import { renderApp, storedSession } from '../../../tests/client/render-app';

afterEach(() => localStorage.clear());

describe('lazy views fetched ahead', () => {
  it('the call views load when the realtime connection is up; a ring then shows its dialog at once', async () => {
    const { runtime, ...view } = renderApp('/', { stored: storedSession });
    const realtime = runtime.app.system.get('realtime');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(LazyCallOverlay.isLoaded()).toBe(false); // signed in, not connected yet: nothing fetched
    act(() => realtime.send({ type: 'socket.connected' }));
    await waitFor(() => expect(LazyCallOverlay.isLoaded()).toBe(true));

    act(() =>
      realtime.send({
        type: 'server.event',
        name: 'call:incoming',
        payload: { conversationId: 'c1', from: { id: 'u2', name: 'Борис' }, video: false },
      }),
    );
    // In the same commit as the ring: no fallback in between.
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Борис');
    expect(screen.queryByText(/Входящий аудио\/видео звонок: /)).toBeNull();
    view.unmount();
    runtime.app.stop();
  });

  it('the lightbox loads when a shown conversation holds images, not before', async () => {
    const text = { type: 'TEXT' } as MessageRow;
    const { rerender } = render(<ConversationView {...paneProps({ status: 'loading', rows: [text] })} />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(LazyLightbox.isLoaded()).toBe(false);
    rerender(<ConversationView {...paneProps({ status: 'loading', rows: [text, { type: 'IMAGE' } as MessageRow] })} />);
    await waitFor(() => expect(LazyLightbox.isLoaded()).toBe(true));
  });
});
