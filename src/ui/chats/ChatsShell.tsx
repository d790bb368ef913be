// The chats page's two panes (docs/behaviour.md §2). Wide screens show the list and the conversation side by side; at
// 768 px or less they are two sliding panels: a 50 px swipe left opens the selected conversation, right returns to
// the list, and the header's back button (<ChatsBackButton />, shown only there) returns too. The off-screen panel
// is inert, so neither Tab nor a screen reader lands in it. `data-wide` is set when the conversation pane is at
// least 900 px wide. Children reach the layout through useChatsShell().
import { type ReactNode, type TouchEventHandler, useCallback, useLayoutEffect, useRef } from 'react';
import type { ChatsPanel } from '../../machines/chats/chatsLayout/chatsLayout.protocol';
import { type ChatsShellApi, ChatsShellContext } from '../shared/chats-shell-context';
import { useChatsLayout } from './useChatsLayout';

export { ChatsBackButton, type ChatsShellApi, useChatsShell } from '../shared/chats-shell-context';

import './chats-shell.css';

export interface ChatsShellProps {
  list: ReactNode;
  conversation: ReactNode;
  /** A conversation is selected (only then can a swipe open it). */
  hasSelection: boolean;
  /** The selected conversation's id: choosing another one slides the conversation in on a narrow screen. */
  selectionKey?: string | null;
}

export function ChatsShell(props: ChatsShellProps) {
  const layout = useChatsLayout(props);
  return (
    <ChatsShellView
      list={props.list}
      conversation={props.conversation}
      panel={layout.panel}
      narrow={layout.narrow}
      wide={layout.wide}
      back={layout.back}
      openConversation={layout.openConversation}
      conversationRef={layout.conversationRef}
      {...layout.swipeHandlers}
    />
  );
}

export interface ChatsShellViewProps extends ChatsShellApi {
  list: ReactNode;
  conversation: ReactNode;
  conversationRef?: (el: HTMLElement | null) => void;
  onTouchStart?: TouchEventHandler;
  onTouchEnd?: TouchEventHandler;
  onTouchCancel?: TouchEventHandler;
}

export function ChatsShellView(props: ChatsShellViewProps) {
  const { narrow, wide, panel, back, openConversation } = props;
  const listPane = useRef<HTMLDivElement>(null);
  const conversationPane = useRef<HTMLDivElement | null>(null);
  const { conversationRef } = props;
  // Stable, so the width observer is set up once per element, not on every render.
  const setConversationPane = useCallback(
    (el: HTMLDivElement | null) => {
      conversationPane.current = el;
      conversationRef?.(el);
    },
    [conversationRef],
  );

  // After a slide, focus moves into the panel that came in (the one it was in is now inert).
  const shown = useRef(panel);
  useLayoutEffect(() => {
    if (shown.current === panel) return;
    shown.current = panel;
    if (!narrow) return;
    const pane = panel === 'list' ? listPane.current : conversationPane.current;
    if (pane && !pane.contains(document.activeElement)) pane.focus({ preventScroll: true });
  }, [panel, narrow]);

  // A tile marked data-conversation-id chosen again while the list is shown slides its conversation in.
  const onListClick = (e: { target: EventTarget }) => {
    if (narrow && e.target instanceof Element && e.target.closest('[data-conversation-id]')) openConversation();
  };

  const hidden = (p: ChatsPanel) => narrow && panel !== p;
  return (
    <ChatsShellContext.Provider value={{ narrow, wide, panel, back, openConversation }}>
      <div
        className="chats-shell"
        data-testid="chats-shell"
        data-layout={narrow ? 'narrow' : 'wide-screen'}
        data-panel={panel}
        data-wide={wide ? 'true' : 'false'}
        onTouchStart={props.onTouchStart}
        onTouchEnd={props.onTouchEnd}
        onTouchCancel={props.onTouchCancel}
      >
        {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: clicks bubbling up from the list's own buttons (keyboard activation included) */}
        <div
          ref={listPane}
          className="chats-pane chats-pane-list"
          data-testid="chats-list-pane"
          tabIndex={-1}
          inert={hidden('list')}
          onClick={onListClick}
        >
          {props.list}
        </div>
        <div
          ref={setConversationPane}
          className="chats-pane chats-pane-conversation"
          data-testid="chats-conversation-pane"
          tabIndex={-1}
          inert={hidden('conversation')}
        >
          {props.conversation}
        </div>
      </div>
    </ChatsShellContext.Provider>
  );
}
