// What domain code uses to tell connected users about changes. The socket.io gateway (gateway.ts) implements
// it; routes depend only on this interface.
import type { ServerEvent, ServerEventName } from '../../src/contract/events';

export interface RealtimeHub {
  toUser<K extends ServerEventName>(userId: string, event: K, payload: ServerEvent<K>): void;
  toUsers<K extends ServerEventName>(userIds: readonly string[], event: K, payload: ServerEvent<K>): void;
  /** Sockets that joined the conversation (conversation:join, after a membership check). */
  toConversation<K extends ServerEventName>(conversationId: string, event: K, payload: ServerEvent<K>): void;
  /**
   * The users' sockets that have not joined the conversation: with toConversation, every socket gets one
   * frame (a joined socket is skipped here, whichever server process holds it).
   */
  toUsersOutside<K extends ServerEventName>(
    userIds: readonly string[],
    conversationId: string,
    event: K,
    payload: ServerEvent<K>,
  ): void;
  /**
   * A typing notice of `userId`, throttled (typing-relay.ts), to the sockets that have the conversation open
   * (the only place a typing indicator is shown), never to the typist's own.
   */
  relayTyping(conversationId: string, userId: string, typing: boolean): void;
  /** `userId`'s message to the conversation was published: it is no longer typing there. */
  typingEnded(conversationId: string, userId: string): void;
  /**
   * The user's sockets except `exceptSocketId` (the tab that caused the event, when the request named it).
   */
  toUserExcept<K extends ServerEventName>(
    userId: string,
    exceptSocketId: string | undefined,
    event: K,
    payload: ServerEvent<K>,
  ): void;
  /** The users' sockets leave the conversation's room on every server process (they lost access to it). */
  leaveConversation(userIds: readonly string[], conversationId: string): void;
  /** Whether the user has at least one connected socket (across all server processes). */
  isOnline(userId: string): boolean;
}

export const userRoom = (userId: string) => `user:${userId}`;
export const conversationRoom = (conversationId: string) => `conv:${conversationId}`;
