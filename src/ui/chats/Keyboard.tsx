// The keys of the signed-in app (docs/behaviour.md §10.49 Keyboard): Ctrl/⌘+K the quick switcher, Ctrl/⌘+/ the list
// of keys («Сочетания клавиш»), Alt+↑/↓ the previous/next chat of the list; and the on-screen keyboard's inset. One keydown listener on the document; a
// key another handler already took (the composer's Ctrl+K on a selection makes a link) is left alone. Fetched after
// the chat list's first paint (index.ts), with the dialogs' code. Which dialog is open is this view's own state: both
// are modal (Modal.tsx: focus inside, Escape closes, focus back where it was); the switcher's flow is its actor's.
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { conversationTitle } from '../../contract/format';
import type { SwitcherChat } from '../../machines/chats/quickSwitcher/quickSwitcher.protocol';
import { useChatsActor } from '../shared/useChatList';
import { QuickSwitcher } from './QuickSwitcher';
import { ShortcutsDialog } from './ShortcutsDialog';
import './keyboard.css';

type Layer = 'switcher' | 'shortcuts' | null;

/** The list's tiles as shown (pinned first, the archive when it is open): Alt+↑/↓ walk them. */
const shownTiles = () => [...document.querySelectorAll<HTMLElement>('.chat-tiles [data-conversation-id]')];

/** The tile `step` away from the open chat's (the first or last when none is open); null past either end. */
function neighbour(step: 1 | -1): HTMLElement | null {
  const tiles = shownTiles();
  const at = tiles.findIndex((t) => t.getAttribute('aria-current') === 'true');
  const next = at < 0 ? (step > 0 ? 0 : tiles.length - 1) : at + step;
  return tiles[next] ?? null;
}

/** Another modal is open (a dialog of the page): its keys are its own. */
const otherModal = () => document.querySelector('[aria-modal="true"]:not(.keys-dialog)') !== null;

/** Once the chosen chat's composer shows, the caret goes there (the switcher was opened to write somewhere). */
function focusComposerOf(conversationId: string): () => void {
  const find = () =>
    location.pathname.includes(conversationId)
      ? document.querySelector<HTMLElement>('[data-testid="chats-conversation-pane"] .composer-input')
      : null;
  const found = find();
  if (found) {
    found.focus();
    return () => undefined;
  }
  const watch = new MutationObserver(() => {
    const el = find();
    if (el) {
      watch.disconnect();
      el.focus();
    }
  });
  watch.observe(document.body, { childList: true, subtree: true });
  // The user moved on first: nothing is taken from them.
  const stop = () => watch.disconnect();
  document.addEventListener('keydown', stop, { once: true, capture: true });
  return stop;
}

/**
 * A browser that lays its on-screen keyboard over the page (Safari) shrinks only the visual viewport: the part it
 * covers becomes --keyboard-inset, which the chats page takes off its height so the composer stays above it
 * (chats-shell.css). Where the keyboard resizes the page (index.html's interactive-widget) the inset stays 0; a
 * pinch zoom is not a keyboard.
 */
function followKeyboardInset(): () => void {
  const vv = window.visualViewport;
  if (!vv) return () => undefined;
  const root = document.documentElement;
  const set = () => {
    const inset = Math.abs(vv.scale - 1) < 0.01 ? Math.max(0, window.innerHeight - vv.height - vv.offsetTop) : 0;
    root.style.setProperty('--keyboard-inset', `${Math.round(inset)}px`);
  };
  set();
  vv.addEventListener('resize', set);
  vv.addEventListener('scroll', set);
  return () => {
    vv.removeEventListener('resize', set);
    vv.removeEventListener('scroll', set);
    root.style.removeProperty('--keyboard-inset');
  };
}

export function Keyboard() {
  const [layer, setLayer] = useState<Layer>(null);
  const chats = useChatsActor();
  const entries = useSelector(chats, (s) => s?.context.entries);
  const me = useSelector(chats, (s) => s?.context.me ?? null);
  const list = useMemo<SwitcherChat[]>(
    () => (entries ?? []).map((e) => ({ id: e.conversation.id, name: conversationTitle(e.conversation, me) })),
    [entries, me],
  );
  const chosen = useRef<string | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      if (mod && e.code === 'KeyK' && !otherModal()) {
        e.preventDefault();
        setLayer((l) => (l === 'switcher' ? null : 'switcher'));
      } else if (mod && e.code === 'Slash' && !otherModal()) {
        e.preventDefault();
        setLayer('shortcuts');
      } else if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && /^Arrow(Up|Down)$/.test(e.key)) {
        if (otherModal()) return;
        const tile = neighbour(e.key === 'ArrowDown' ? 1 : -1);
        if (!tile) return;
        e.preventDefault();
        // The tile opens its chat as a click would; the focus follows when it was in the list.
        const inList = document.activeElement?.closest('[data-conversation-id]');
        tile.click();
        if (inList) tile.focus();
        else tile.scrollIntoView({ block: 'nearest' });
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  useEffect(followKeyboardInset, []);

  // After the switcher closed (its Modal gave the focus back), a chosen chat takes it.
  useEffect(() => {
    if (layer !== null || !chosen.current) return;
    const id = chosen.current;
    chosen.current = null;
    return focusComposerOf(id);
  }, [layer]);

  if (layer === 'switcher')
    return (
      <QuickSwitcher
        chats={list}
        onDone={(id) => {
          chosen.current = id;
          setLayer(null);
        }}
      />
    );
  if (layer === 'shortcuts') return <ShortcutsDialog onClose={() => setLayer(null)} />;
  return null;
}
