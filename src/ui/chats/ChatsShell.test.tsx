import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runtimeWrapper } from '../../../tests/fixtures/runtime-wrapper';
import { ChatsBackButton, ChatsShell, ChatsShellView, type ChatsShellViewProps, useChatsShell } from './ChatsShell';

/** A matchMedia whose '(max-width: 768px)' answer the test sets. */
function fakeMatchMedia(narrow: boolean) {
  const listeners = new Set<() => void>();
  const state = { narrow };
  const answer = (query: string) => (query.includes('max-width: 768px') ? state.narrow : false);
  window.matchMedia = ((query: string) => ({
    // A getter, so a list that keeps the object reads the current answer.
    get ['matches']() {
      return answer(query);
    },
    media: query,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  })) as unknown as typeof window.matchMedia;
  return {
    set(value: boolean) {
      state.narrow = value;
      act(() => {
        for (const l of listeners) l();
      });
    },
  };
}

/** A ResizeObserver the test drives: resize(width) reports a new width for every observed element. */
const observers: { cb: ResizeObserverCallback; els: Element[] }[] = [];
class FakeResizeObserver {
  private entry: { cb: ResizeObserverCallback; els: Element[] };
  constructor(cb: ResizeObserverCallback) {
    this.entry = { cb, els: [] };
    observers.push(this.entry);
  }
  observe(el: Element) {
    this.entry.els.push(el);
  }
  disconnect() {
    this.entry.els = [];
  }
  unobserve() {}
}
function resize(width: number) {
  act(() => {
    for (const o of observers) {
      for (const el of o.els)
        o.cb([{ target: el, contentRect: { width } } as unknown as ResizeObserverEntry], {} as ResizeObserver);
    }
  });
}

const original = { matchMedia: window.matchMedia, ResizeObserver: globalThis.ResizeObserver };
beforeEach(() => {
  globalThis.ResizeObserver = FakeResizeObserver as unknown as typeof ResizeObserver;
});
afterEach(() => {
  window.matchMedia = original.matchMedia;
  globalThis.ResizeObserver = original.ResizeObserver;
  observers.length = 0;
});

function Header() {
  const { wide } = useChatsShell();
  return (
    <header>
      <ChatsBackButton />
      <span>Борис</span>
      {wide && <span>широко</span>}
    </header>
  );
}
const list = (
  <ul>
    <li>
      <button type="button" data-conversation-id="c1">
        Борис
      </button>
    </li>
  </ul>
);

function swipe(dx: number, opts: { dy?: number; fingers?: number; on?: HTMLElement } = {}) {
  const target = opts.on ?? screen.getByTestId('chats-shell');
  const start = { clientX: 200, clientY: 300 };
  const end = { clientX: 200 + dx, clientY: 300 + (opts.dy ?? 0) };
  const fingers = opts.fingers ?? 1;
  fireEvent.touchStart(target, { touches: Array(fingers).fill(start), changedTouches: [start] });
  fireEvent.touchEnd(target, { touches: Array(fingers - 1).fill(end), changedTouches: [end] });
}
const panel = () => screen.getByTestId('chats-shell').getAttribute('data-panel');

describe('ChatsShellView (from props)', () => {
  const props = (over: Partial<ChatsShellViewProps> = {}): ChatsShellViewProps => ({
    list,
    conversation: <Header />,
    narrow: true,
    wide: false,
    panel: 'list',
    back: vi.fn(),
    openConversation: vi.fn(),
    ...over,
  });

  it('narrow on the list: the conversation panel is inert and has no back button reachable', () => {
    render(<ChatsShellView {...props()} />);
    expect(screen.getByTestId('chats-shell')).toHaveAttribute('data-layout', 'narrow');
    expect(screen.getByTestId('chats-conversation-pane')).toHaveAttribute('inert');
    expect(screen.getByTestId('chats-list-pane')).not.toHaveAttribute('inert');
  });

  it('narrow on the conversation: the back button calls back; the list is inert', async () => {
    const p = props({ panel: 'conversation' });
    render(<ChatsShellView {...p} />);
    expect(screen.getByTestId('chats-list-pane')).toHaveAttribute('inert');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Назад к списку чатов' }));
    expect(p.back).toHaveBeenCalledTimes(1);
  });

  it('wide screen: both panes live, no back button, the wide flag passed through', () => {
    render(<ChatsShellView {...props({ narrow: false, wide: true })} />);
    expect(screen.getByTestId('chats-shell')).toHaveAttribute('data-wide', 'true');
    expect(screen.getByTestId('chats-list-pane')).not.toHaveAttribute('inert');
    expect(screen.getByTestId('chats-conversation-pane')).not.toHaveAttribute('inert');
    expect(screen.queryByRole('button', { name: 'Назад к списку чатов' })).toBeNull();
    expect(screen.getByText('широко')).toBeInTheDocument();
  });

  it('choosing a conversation tile in the list asks for the conversation panel', async () => {
    const p = props();
    render(<ChatsShellView {...p} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Борис' }));
    expect(p.openConversation).toHaveBeenCalledTimes(1);
  });
});

describe('ChatsShell (with its statechart)', () => {
  it('narrow: swipes of 50 px move between the panels, shorter or vertical ones and pinches do not', () => {
    fakeMatchMedia(true);
    const { rerender } = render(<ChatsShell list={list} conversation={<Header />} hasSelection={false} />, {
      wrapper: runtimeWrapper().wrapper,
    });
    expect(panel()).toBe('list');
    swipe(-120); // nothing selected yet
    expect(panel()).toBe('list');

    rerender(<ChatsShell list={list} conversation={<Header />} hasSelection={true} />);
    expect(panel()).toBe('conversation'); // selecting slides the conversation in
    expect(screen.getByTestId('chats-conversation-pane')).toHaveFocus();
    swipe(49);
    expect(panel()).toBe('conversation');
    swipe(80, { dy: 200 }); // a scroll, not a swipe
    expect(panel()).toBe('conversation');
    swipe(50);
    expect(panel()).toBe('list');
    expect(screen.getByTestId('chats-list-pane')).toHaveFocus();
    swipe(-50, { fingers: 2 }); // a pinch
    expect(panel()).toBe('list');
    swipe(-50);
    expect(panel()).toBe('conversation');
  });

  it('narrow: a swipe inside a dialog over the conversation (the lightbox) does not move the panels', () => {
    fakeMatchMedia(true);
    const conversation = (
      <div role="dialog" aria-label="Просмотр изображения">
        картинка
      </div>
    );
    render(<ChatsShell list={list} conversation={conversation} hasSelection={true} />, {
      wrapper: runtimeWrapper().wrapper,
    });
    swipe(150, { on: screen.getByRole('dialog') });
    expect(panel()).toBe('conversation');
    swipe(150, { on: screen.getByTestId('chats-conversation-pane') });
    expect(panel()).toBe('list');
  });

  it('narrow: the back button returns to the list, the tile brings the conversation back', async () => {
    fakeMatchMedia(true);
    render(<ChatsShell list={list} conversation={<Header />} hasSelection={true} selectionKey="c1" />, {
      wrapper: runtimeWrapper().wrapper,
    });
    expect(panel()).toBe('conversation'); // opened with a selection (e.g. from the contacts page)
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Назад к списку чатов' }));
    expect(panel()).toBe('list');
    expect(screen.getByTestId('chats-conversation-pane')).toHaveAttribute('inert');
    await user.click(screen.getByRole('button', { name: 'Борис' }));
    expect(panel()).toBe('conversation');
  });

  it('narrow: choosing another conversation (a new selection key) slides it in', () => {
    fakeMatchMedia(true);
    const { rerender } = render(
      <ChatsShell list={<p>список</p>} conversation={<Header />} hasSelection={true} selectionKey="c1" />,
      { wrapper: runtimeWrapper().wrapper },
    );
    act(() => screen.getByRole('button', { name: 'Назад к списку чатов' }).click());
    expect(panel()).toBe('list');
    rerender(<ChatsShell list={<p>список</p>} conversation={<Header />} hasSelection={true} selectionKey="c2" />);
    expect(panel()).toBe('conversation');
    rerender(<ChatsShell list={<p>список</p>} conversation={<Header />} hasSelection={false} selectionKey={null} />);
    expect(panel()).toBe('list');
  });

  it('wide screen: swipes are ignored and there is no back button; crossing 768 px switches layouts', () => {
    const media = fakeMatchMedia(false);
    render(<ChatsShell list={list} conversation={<Header />} hasSelection={true} />, {
      wrapper: runtimeWrapper().wrapper,
    });
    expect(screen.getByTestId('chats-shell')).toHaveAttribute('data-layout', 'wide-screen');
    expect(screen.queryByRole('button', { name: 'Назад к списку чатов' })).toBeNull();
    swipe(200);
    expect(panel()).toBe('conversation');
    media.set(true);
    expect(screen.getByTestId('chats-shell')).toHaveAttribute('data-layout', 'narrow');
    expect(screen.getByRole('button', { name: 'Назад к списку чатов' })).toBeInTheDocument();
  });

  it('sets the wide-layout flag while the conversation pane is at least 900 px wide', () => {
    fakeMatchMedia(false);
    render(<ChatsShell list={list} conversation={<Header />} hasSelection={true} />, {
      wrapper: runtimeWrapper().wrapper,
    });
    const shell = screen.getByTestId('chats-shell');
    expect(shell).toHaveAttribute('data-wide', 'false');
    resize(900);
    expect(shell).toHaveAttribute('data-wide', 'true');
    expect(screen.getByText('широко')).toBeInTheDocument();
    resize(899);
    expect(shell).toHaveAttribute('data-wide', 'false');
    // One observer on the pane, not one per render.
    expect(observers.filter((o) => o.els.length > 0)).toHaveLength(1);
  });
});
