// The navigation actor's protocol (systemId 'navigation'): the address is the source of truth for which
// conversation is open. It hears the router's locations and the chats actor's selections, and asks the router to
// go where a selection made elsewhere (a notification, the contacts page, a search result) belongs.
// Peers and views import this module, never navigation.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, EventObject } from 'xstate';

/** The address of an open conversation (docs/behaviour.md §10.17). */
export const conversationPath = (conversationId: string) => `/c/${encodeURIComponent(conversationId)}`;

/** The conversation an address opens; null for any other address. */
export function conversationOfPath(path: string): string | null {
  const m = /^\/c\/([^/]+)\/?$/.exec(path);
  if (!m?.[1]) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** The tab's title: the unread total first when there is any. */
export const pageTitle = (unread: number) => (unread > 0 ? `(${unread}) Беседа` : 'Беседа');

export const isListPath = (path: string) => path === '/' || path === '';

export interface NavigationContext {
  /** The router's current path. */
  path: string;
  /** The chats actor's selection as last heard. */
  selectedId: string | null;
  /** The conversation open before the list was shown again: a left swipe on a phone opens it again. */
  lastId: string | null;
  /** The open conversation's address was reached from the list: Back in the app is the browser's Back. */
  fromList: boolean;
}

export type NavigationEvent =
  /** The router is at a new address (its first one at start). */
  | { type: 'nav.location'; path: string }
  /** The chats actor opened a conversation (null: closed it). */
  | { type: 'nav.selected'; conversationId: string | null }
  /** The conversation header's ‹ or a right swipe on a phone: back to the list. */
  | { type: 'nav.back' }
  /** A left swipe on the list of a phone: the conversation shown last, again. */
  | { type: 'nav.forward' };

/** What the router actor is asked to do. */
export type RouterCommand = { type: 'router.go'; path: string; replace: boolean } | { type: 'router.back' };

export type NavigationRef = MachineRef<NavigationContext, NavigationEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/chats/chats.effects.ts). */
export interface NavigationEffects {
  /** Reports the router's locations as `nav.location` and carries out RouterCommands (src/services/chats/chats.effects.ts). */
  router: CallbackActorLogic<RouterCommand, unknown>;
  /** The chats actor's selections as `nav.selected`. */
  selections: CallbackActorLogic<EventObject, unknown>;
  /** The tab's title counts the unread messages: «(3) Беседа». */
  pageTitle: CallbackActorLogic<EventObject, unknown>;
}

declare module '../../shared/system' {
  interface SystemActors {
    navigation: NavigationRef;
  }
}
