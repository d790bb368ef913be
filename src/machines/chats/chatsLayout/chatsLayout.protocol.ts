// The chats layout's protocol (view-local: ChatsShell runs it): the events it accepts on a narrow screen. The view
// imports this module for its types.
import type { MachineRef } from '../../shared/machine-ref';

export type ChatsPanel = 'list' | 'conversation';

/** The tag views read: the conversation panel is the one shown (else the list). */
export const LAYOUT_TAGS = { conversation: 'conversationShown' } as const;

export interface ChatsLayoutContext {
  hasSelection: boolean;
}

export type ChatsLayoutEvent =
  /** The selection changed (a new conversation chosen, or none any more). */
  | { type: 'layout.selectionChanged'; hasSelection: boolean }
  /** A finished touch gesture: its horizontal and vertical travel in px (left is negative). */
  | { type: 'layout.swiped'; dx: number; dy: number }
  | { type: 'layout.back' }
  /** The already selected conversation chosen again in the list. */
  | { type: 'layout.open' };

export type ChatsLayoutRef = MachineRef<ChatsLayoutContext, ChatsLayoutEvent>;

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The chats page's two panes (spawned while the page is shown). */
    chatsLayout: ChatsLayoutRef;
  }
}
