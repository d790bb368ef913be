// Threads (server/threads/): a thread's replies, following and reading them, the group's setting.
// Each route's method and path are in ./threads.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id, Message } from '../entities';
import { MembershipResponse } from './conversations';
import { MessagesQuery } from './messages';
import { threadsRoutes } from './threads.routes';
import { Ok, withSchemas } from './with-schemas';

/** A thread: its root (path `:id`) and a page of its replies, oldest first, paged back like the history. */
export const ThreadParams = z.strictObject({ id: Id });
export const ThreadResponse = z.object({
  root: Message,
  messages: z.array(Message),
  hasMore: z.boolean(),
  /** Whether the caller follows the thread (its replies count as unread and notify them). */
  following: z.boolean(),
});
export const FollowThreadBody = z.strictObject({ rootId: Id, follow: z.boolean() });
export const FollowThreadResponse = z.object({ following: z.boolean() });
export const ReadThreadBody = z.strictObject({ rootId: Id });
/** One followed thread with the caller's unread replies in it; newest reply first. */
export const FollowedThread = z.object({ conversationId: Id, root: Message, unread: z.number().int() });
export const FollowedThreadsResponse = z.object({ threads: z.array(FollowedThread) });
/** «Обсуждения» in a group on or off (owner or admins). */
export const ThreadsSettingBody = z.strictObject({ conversationId: Id, enabled: z.boolean() });

/** The routes of ./threads.routes with their schemas. */
export const threadsApi = withSchemas(threadsRoutes, {
  thread: { params: ThreadParams, query: MessagesQuery, response: ThreadResponse },
  followThread: { body: FollowThreadBody, response: FollowThreadResponse },
  readThread: { body: ReadThreadBody, response: Ok },
  followedThreads: { response: FollowedThreadsResponse },
  threadsSetting: { body: ThreadsSettingBody, response: MembershipResponse },
});
