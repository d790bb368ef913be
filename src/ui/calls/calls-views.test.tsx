// The call views rendered from props: the incoming-call dialog, the overlay (nothing until token and url; the
// conference stands in for the lazy livekit chunk), the notice, and the /calls form.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CallLayerView } from './CallLayer';
import { CallOverlay } from './CallOverlay';
import { CallsPageView, type CallsPageViewProps } from './CallsPage';
import { GroupCallBar } from './GroupCallBar';
import { type ConferenceProps, e2eeSupported } from './conference-rules';
import { IncomingCallDialog } from './IncomingCallDialog';
import { preloadCallViews } from './lazy-call-views';

// The layer's views are a lazy chunk, here fetched ahead as the app does once connected
// (src/ui/shared/lazy-views.test.tsx covers the loading itself).
beforeAll(() => preloadCallViews());

const from = { id: 'u1', name: 'Анна Петрова' };

/** A conference stand-in that shows what it was given and can leave or fail like the real one. */
function FakeConference(p: ConferenceProps) {
  return (
    <div
      data-testid="conference"
      data-video={String(p.video)}
      data-audio={String(p.audio)}
      data-url={p.serverUrl}
      data-token={p.token}
      data-e2ee-epoch={p.e2ee?.key?.epoch}
    >
      <button type="button" onClick={p.onLeave}>
        {p.leaveLabel}
      </button>
      <button type="button" onClick={() => p.onError('no livekit url provided')}>
        сбой
      </button>
    </div>
  );
}

describe('incoming-call dialog', () => {
  it('shows the title, the sender and the three answers, and calls back on each', async () => {
    const onAccept = vi.fn();
    const onAcceptVideo = vi.fn();
    const onDecline = vi.fn();
    render(
      <IncomingCallDialog from={from} video onAccept={onAccept} onAcceptVideo={onAcceptVideo} onDecline={onDecline} />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' });
    expect(dialog).toHaveAccessibleDescription(/Анна Петрова/);
    expect(dialog).toHaveTextContent('Видеозвонок');
    expect(dialog).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Ответить' }));
    await userEvent.click(screen.getByRole('button', { name: 'Ответить с видео' }));
    await userEvent.click(screen.getByRole('button', { name: 'Отклонить' }));
    expect([onAccept.mock.calls.length, onAcceptVideo.mock.calls.length, onDecline.mock.calls.length]).toEqual([
      1, 1, 1,
    ]);
  });

  it('is usable from the keyboard: Tab reaches the answers, Escape declines, focus returns afterwards', async () => {
    const before = document.createElement('input');
    document.body.append(before);
    before.focus();
    const onDecline = vi.fn();
    const onAccept = vi.fn();
    const { unmount } = render(
      <IncomingCallDialog
        from={from}
        video={false}
        onAccept={onAccept}
        onAcceptVideo={() => {}}
        onDecline={onDecline}
      />,
    );
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Аудиозвонок');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Отклонить' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    expect(onAccept).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    expect(onDecline).toHaveBeenCalledTimes(1);
    unmount();
    expect(before).toHaveFocus();
    before.remove();
  });
});

describe('call overlay', () => {
  const base = {
    calling: false,
    video: true,
    audio: true,
    onEnd: () => {},
    onFailed: () => {},
    conference: FakeConference,
  };

  it('renders nothing until both token and url exist', () => {
    const { container, rerender } = render(<CallOverlay {...base} token={null} url={null} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<CallOverlay {...base} token="jwt" url={null} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<CallOverlay {...base} token={null} url="ws://h:7880" />);
    expect(container).toBeEmptyDOMElement();
    rerender(<CallOverlay {...base} token="jwt" url="ws://h:7880" />);
    const dialog = screen.getByRole('dialog', { name: 'Звонок' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const conference = screen.getByTestId('conference');
    expect(conference.dataset).toMatchObject({ token: 'jwt', url: 'ws://h:7880', video: 'true', audio: 'true' });
  });

  it('says it is calling and offers to cancel; an answered call offers to end; leaving or failing ends it', async () => {
    const onEnd = vi.fn();
    const onFailed = vi.fn();
    const { rerender } = render(
      <CallOverlay {...base} calling video={false} token="jwt" url="ws://h" onEnd={onEnd} onFailed={onFailed} />,
    );
    expect(screen.getByRole('heading', { name: 'Вызов… ждём ответа' })).toBeInTheDocument();
    expect(screen.getByTestId('conference').dataset.video).toBe('false');
    await userEvent.click(screen.getByRole('button', { name: 'Отменить вызов' }));
    rerender(<CallOverlay {...base} token="jwt" url="ws://h" onEnd={onEnd} onFailed={onFailed} />);
    expect(screen.getByRole('heading', { name: 'Звонок' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Завершить звонок' }));
    await userEvent.click(screen.getByRole('button', { name: 'Завершить' }));
    expect(onEnd).toHaveBeenCalledTimes(3);
    await userEvent.click(screen.getByRole('button', { name: 'сбой' }));
    expect(onFailed).toHaveBeenCalledWith('no livekit url provided');
  });

  it("a group's call is left, not ended; «Завершить для всех» only where it is offered", async () => {
    const onEnd = vi.fn();
    const onEndForAll = vi.fn();
    const { rerender } = render(<CallOverlay {...base} group token="jwt" url="ws://h" onEnd={onEnd} />);
    expect(screen.queryByRole('button', { name: 'Завершить для всех' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Выйти из звонка' }));
    await userEvent.click(screen.getByRole('button', { name: 'Выйти' }));
    expect(onEnd).toHaveBeenCalledTimes(2);
    rerender(<CallOverlay {...base} group token="jwt" url="ws://h" onEnd={onEnd} onEndForAll={onEndForAll} />);
    await userEvent.click(screen.getByRole('button', { name: 'Завершить для всех' }));
    expect(onEndForAll).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(2);
  });

  it('a secret chat’s call: says it is encrypted, waits for the key, and is not made where it cannot be encrypted', () => {
    const key = { epoch: 4, key: new Uint8Array(32) };
    const { rerender } = render(
      <CallOverlay {...base} token="jwt" url="ws://h" e2ee={{ key: null, error: null }} canEncrypt />,
    );
    expect(screen.getByTestId('call-e2ee')).toHaveTextContent('Звонок защищён сквозным шифрованием');
    expect(screen.getByRole('status')).toHaveTextContent('Подключаемся…');
    expect(screen.queryByTestId('conference')).toBeNull();
    rerender(<CallOverlay {...base} token="jwt" url="ws://h" e2ee={{ key, error: null }} canEncrypt />);
    expect(screen.getByTestId('conference').dataset.e2eeEpoch).toBe('4');
    // No key for this device: the reason, and no call in the clear.
    rerender(<CallOverlay {...base} token="jwt" url="ws://h" e2ee={{ key: null, error: 'нет группы' }} canEncrypt />);
    expect(screen.getByRole('alert')).toHaveTextContent('нет группы');
    expect(screen.queryByTestId('call-e2ee')).toBeNull();
    rerender(<CallOverlay {...base} token="jwt" url="ws://h" e2ee={{ key, error: null }} canEncrypt={false} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Этот браузер не поддерживает зашифрованные звонки');
    expect(screen.queryByTestId('conference')).toBeNull();
    expect(screen.queryByTestId('call-e2ee')).toBeNull();
    // An ordinary call says nothing of encryption.
    rerender(<CallOverlay {...base} token="jwt" url="ws://h" canEncrypt={false} />);
    expect(screen.getByTestId('conference').dataset.e2eeEpoch).toBeUndefined();
    expect(screen.queryByTestId('call-e2ee')).toBeNull();
  });

  it('tells whether a browser can encrypt frames as livekit does', () => {
    expect(e2eeSupported({ RTCRtpScriptTransform: class {} })).toBe(true);
    expect(e2eeSupported({ RTCRtpSender: { prototype: { createEncodedStreams() {} } } })).toBe(true);
    expect(e2eeSupported({ RTCRtpSender: { prototype: {} } })).toBe(false);
    expect(e2eeSupported(undefined)).toBe(false);
  });

  it('keeps Tab inside the overlay', async () => {
    render(
      <>
        <button type="button">снаружи</button>
        <CallOverlay {...base} token="jwt" url="ws://h" />
      </>,
    );
    const inside = ['Завершить звонок', 'Завершить', 'сбой'].map((name) => screen.getByRole('button', { name }));
    // jsdom has no layout: make the buttons count as visible for the trap.
    for (const b of inside) b.getClientRects = () => [{}] as unknown as DOMRectList;
    expect(screen.getByRole('dialog')).toHaveFocus();
    await userEvent.tab();
    expect(inside[0]).toHaveFocus();
    inside[2]!.focus();
    await userEvent.tab();
    expect(inside[0]).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(inside[2]).toHaveFocus();
  });
});

describe('call layer', () => {
  const handlers = {
    accept: vi.fn(),
    acceptVideo: vi.fn(),
    decline: vi.fn(),
    end: vi.fn(),
    fail: vi.fn(),
    dismissNotice: vi.fn(),
  };

  it('shows the ringing invitation, the open call, and a dismissible notice', async () => {
    const { rerender } = render(
      <CallLayerView {...handlers} incoming={{ conversationId: 'c1', from, video: true }} call={null} notice={null} />,
    );
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Анна Петрова');
    expect(screen.queryByRole('dialog')).toBeNull();
    rerender(<CallLayerView {...handlers} incoming={null} call={null} notice="Собеседник не в сети" />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Собеседник не в сети');
    await userEvent.click(screen.getByRole('button', { name: 'Закрыть уведомление' }));
    expect(handlers.dismissNotice).toHaveBeenCalledTimes(1);
    // An open call whose token has not come yet renders nothing.
    const { container } = render(
      <CallLayerView
        {...handlers}
        incoming={null}
        call={{ token: null, url: null, calling: true, video: true, audio: true }}
        notice={null}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('/calls page', () => {
  const props = (over: Partial<CallsPageViewProps> = {}): CallsPageViewProps => ({
    room: 'demo-room',
    busy: false,
    error: null,
    serverUrl: 'ws://localhost:7880',
    access: null,
    join: vi.fn(),
    left: vi.fn(),
    failed: vi.fn(),
    conference: FakeConference,
    ...over,
  });

  it('asks for a room (required, demo-room by default), shows the video server, joins with what was typed', async () => {
    const p = props();
    render(<CallsPageView {...p} />);
    expect(screen.getByRole('form', { name: 'Подключиться к комнате' })).toBeInTheDocument();
    const room = screen.getByRole('textbox', { name: 'Комната' });
    expect(room).toBeRequired();
    expect(room).toHaveValue('demo-room');
    expect(screen.getByTestId('video-server')).toHaveTextContent('ws://localhost:7880');
    await userEvent.clear(room);
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(p.join).not.toHaveBeenCalled(); // the browser refuses an empty required field
    await userEvent.type(room, 'team');
    await userEvent.keyboard('{Enter}');
    expect(p.join).toHaveBeenCalledWith('team');
  });

  it('says Подключаемся… while waiting, shows errors, then the conference with video and audio on', async () => {
    const { rerender } = render(<CallsPageView {...props({ busy: true })} />);
    expect(screen.getByRole('button', { name: 'Подключаемся…' })).toBeDisabled();
    rerender(<CallsPageView {...props({ error: 'Не удалось подключиться к комнате' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось подключиться к комнате');
    const p = props({ access: { token: 'jwt', url: 'ws://h:7880' } });
    rerender(<CallsPageView {...p} />);
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.getByTestId('conference').dataset).toMatchObject({
      video: 'true',
      audio: 'true',
      token: 'jwt',
      url: 'ws://h:7880',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Выйти' }));
    expect(p.left).toHaveBeenCalled();
  });

  it('on a page that is not a secure context, says where calls work: the https address as a link, or ask the administrator', () => {
    const { rerender } = render(
      <CallsPageView
        {...props({ insecure: { secureUrl: 'https://chat.example.org' }, error: 'Не удалось подключиться к комнате' })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'Звонки и голосовые сообщения работают только по защищённому адресу (https://chat.example.org)',
    );
    expect(alert).not.toHaveTextContent('Не удалось');
    expect(screen.getByRole('link', { name: 'https://chat.example.org' })).toHaveAttribute(
      'href',
      'https://chat.example.org',
    );
    expect(screen.getByRole('form', { name: 'Подключиться к комнате' })).toBeInTheDocument();
    rerender(<CallsPageView {...props({ insecure: { secureUrl: null } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Звонки и голосовые сообщения работают только по защищённому адресу (https://) — попросите администратора настроить HTTPS',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe("a group's call bar", () => {
  it('says a call is on with how many are in it and their faces, and joins', async () => {
    const onJoin = vi.fn();
    const face = { face: { kind: 'initials' as const, text: 'АП' }, colour: '#123456', presence: null };
    render(<GroupCallBar count={5} avatars={[face, face, face]} onJoin={onJoin} />);
    const bar = screen.getByRole('status');
    expect(bar).toHaveTextContent('Идёт звонок · 5 участников');
    await userEvent.click(screen.getByRole('button', { name: 'Присоединиться' }));
    expect(onJoin).toHaveBeenCalledTimes(1);
  });
});
