// The chats shell's layout as its children see it: whether the two-panel (narrow) layout is on, and the way back to
// the list. The shell (src/ui/chats/ChatsShell.tsx) provides it; the conversation's header renders the back button,
// so both features meet here rather than importing each other.
import { createContext, useContext } from 'react';

export interface ChatsShellApi {
  /** The two-panel layout is active (≤ 768 px). */
  narrow: boolean;
  /** The conversation pane is at least 900 px wide. */
  wide: boolean;
  /** The panel a narrow screen shows. */
  panel: 'list' | 'conversation';
  /** Back to the list (the header's back button). */
  back(): void;
  /** Show the selected conversation (e.g. its tile chosen again). */
  openConversation(): void;
}

const outside: ChatsShellApi = { narrow: false, wide: false, panel: 'list', back() {}, openConversation() {} };
export const ChatsShellContext = createContext<ChatsShellApi>(outside);

/** The layout for components inside <ChatsShell> (a harmless default outside it, e.g. in view tests). */
export function useChatsShell(): ChatsShellApi {
  return useContext(ChatsShellContext);
}

/** The header's back button: rendered only in the narrow layout, it returns to the list. */
export function ChatsBackButton(props: { className?: string }) {
  const { narrow, back } = useChatsShell();
  if (!narrow) return null;
  return (
    <button
      type="button"
      className={`chats-back ${props.className ?? ''}`.trim()}
      aria-label="Назад к списку чатов"
      onClick={back}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M15 5l-7 7 7 7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
