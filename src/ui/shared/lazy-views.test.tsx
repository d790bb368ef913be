// Views split off the chats page's first bundle (bench/client/bundle.ts) show a visible, announced fallback while their chunk
// loads, then the view itself. Nothing here is fetched ahead, so each view goes through its loading once (this
// file has its own module registry; src/ui/shared/lazy-preload.test.tsx covers fetching ahead).
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import { AppRoutes, AuthPages } from '../app/AppRoutes';
import { CallLayerView } from '../calls/CallLayer';
import type { ConferenceProps } from '../calls/conference-rules';
import { LazyCallOverlay } from '../calls/lazy-call-views';
import { ConversationView, LazyLightbox } from '../conversation/ConversationView';
import { RuntimeProvider } from '../app/RuntimeContext';
import { never, quietSocket } from '../../../tests/fixtures/session';
import { runtimeWrapper } from '../../../tests/fixtures/runtime-wrapper';
import { paneProps } from '../../../tests/client/pane-props';

const from = { id: 'u2', name: 'Борис' };
const handlers = {
  accept: vi.fn(),
  acceptVideo: vi.fn(),
  decline: vi.fn(),
  end: vi.fn(),
  fail: vi.fn(),
  dismissNotice: vi.fn(),
};

describe('lazy views: a fallback while the chunk loads, then the view', () => {
  it('sign-in: "Загружаем…" (a status) until the sign-in page is here', async () => {
    expect(AuthPages.isLoaded()).toBe(false);
    const runtime = createRuntime({
      effects: appEffects,
      stored: null,
      services: { api: { call: never }, connectSocket: () => quietSocket(), ping: () => never() },
    });
    const view = render(
      <RuntimeProvider app={runtime.app}>
        <MemoryRouter initialEntries={['/auth']}>
          <AppRoutes />
        </MemoryRouter>
      </RuntimeProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Загружаем…');
    expect(await screen.findByRole('heading', { name: 'Беседа' })).toBeInTheDocument();
    expect(screen.getByLabelText('Никнейм')).toBeInTheDocument();
    expect(screen.queryByText('Загружаем…')).toBeNull();
    view.unmount();
    runtime.app.stop();
  });

  it('incoming call: the dialog with its three answers in the first render (its code is in the first bundle)', () => {
    render(
      <CallLayerView {...handlers} incoming={{ conversationId: 'c1', from, video: true }} call={null} notice={null} />,
    );
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Борис');
    for (const name of ['Отклонить', 'Ответить', 'Ответить с видео'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });

  it('incoming call: the caller’s picture when they have one', () => {
    const { container } = render(
      <CallLayerView
        {...handlers}
        incoming={{ conversationId: 'c1', from: { ...from, avatarUrl: '/uploads/boris.png' }, video: false }}
        call={null}
        notice={null}
      />,
    );
    expect(container.querySelector('.incoming-call img')?.getAttribute('src')).toBe('/uploads/boris.png');
  });

  it('call overlay: nothing before the room token; "Подключаемся…" while the overlay loads; then the overlay', async () => {
    expect(LazyCallOverlay.isLoaded()).toBe(false);
    const FakeConference = (p: ConferenceProps) => <div data-testid="conference">{p.serverUrl}</div>;
    const call = (token: string | null) =>
      ({
        token,
        url: token && 'ws://h:7880',
        calling: false,
        video: true,
        audio: true,
        conference: FakeConference,
      }) as never;
    const { container, rerender } = render(
      <CallLayerView {...handlers} incoming={null} call={call(null)} notice={null} />,
    );
    expect(container).toBeEmptyDOMElement();
    rerender(<CallLayerView {...handlers} incoming={null} call={call('jwt')} notice={null} />);
    expect(screen.getByRole('status')).toHaveTextContent('Подключаемся…');
    expect(await screen.findByRole('dialog', { name: 'Звонок' })).toBeInTheDocument();
    expect(screen.getByTestId('conference')).toHaveTextContent('ws://h:7880');
  });

  it('lightbox: "Открываем изображение…" until the lightbox is here', async () => {
    expect(LazyLightbox.isLoaded()).toBe(false);
    // The lightbox's actor lives in the app's runtime while it is shown.
    render(
      <ConversationView
        {...paneProps({ lightbox: { items: [{ url: '/uploads/a.png', name: 'a.png' }], index: 0 } })}
      />,
      {
        wrapper: runtimeWrapper().wrapper,
      },
    );
    expect(screen.getByRole('status')).toHaveTextContent('Открываем изображение…');
    expect(await screen.findByRole('dialog', { name: 'Просмотр изображения' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'a.png' })).toHaveAttribute('src', '/uploads/a.png');
    expect(screen.queryByText('Открываем изображение…')).toBeNull();
  });
});
