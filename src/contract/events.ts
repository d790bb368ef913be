// The socket.io contract (docs/behaviour.md §7). Client → server events are validated with these schemas on the
// server; server → client payloads are typed from them on the client (import type: the client loads no zod) and
// checked against them in the server tests (tests/server/socket-helpers.ts).
import { z } from 'zod';
import { ReportNotice } from './administration';
import { ChatFolder } from './api/folders';
import {
  ChatSettings,
  Contact,
  ConversationEntry,
  CustomStatus,
  GroupCall,
  Id,
  IsoDate,
  LinkPreview,
  Message,
  PollInfo,
  PresenceStatus,
  Reaction,
  Receipt,
  TextEntity,
  ThreadSummary,
} from './entities';
import type { ServerEventName } from './event-names';
import { GuestAdmit, GuestKey, KnockRef, WaitingGuest, WaitingGuestE2ee } from './guests';
import { ImportJob } from './imports';
import { SecretFirstDeviceEvent, SecretLogEvent, SecretPendingEvent } from './secret';

export const ConversationRef = z.strictObject({ conversationId: Id });
/** conversation:join / conversation:leave accept the bare id (as the seed's client sends it) or {conversationId}. */
export const ConversationJoin = z.union([Id, ConversationRef]);
export const TypingIn = z.strictObject({ conversationId: Id, typing: z.boolean() });
export const CallInvite = z.strictObject({ conversationId: Id, video: z.boolean() });
export const CallAccept = CallInvite;
export const CallRef = ConversationRef;
export const SessionRenew = z.strictObject({ token: z.string().min(1).max(4096) });

export const clientEvents = {
  'conversation:join': ConversationJoin,
  'conversation:leave': ConversationJoin,
  'conversation:typing': TypingIn,
  'call:invite': CallInvite,
  'call:accept': CallAccept,
  'call:decline': CallRef,
  'call:end': CallRef,
  /** A group's call (docs/calls.md "Group calls"): start it (or join the one that is on). */
  'groupCall:start': CallInvite,
  /** `video` is the joiner's own choice (the room's is the starter's); accepted so every start, join or answer is one shape. */
  'groupCall:join': z.strictObject({ conversationId: Id, video: z.boolean().optional() }),
  /** «Выйти из звонка»: only me; the call ends when the last one leaves. */
  'groupCall:leave': CallRef,
  /** «Завершить для всех»: the group's owner and admins only. */
  'groupCall:end': CallRef,
  /** Stops my own ringing (every tab of mine); the call goes on. */
  'groupCall:decline': CallRef,
  /** «Поднять руку» (true) / «Опустить руку» (false): only someone in the call. */
  'groupCall:hand': z.strictObject({ conversationId: Id, raised: z.boolean() }),
  'session:renew': SessionRenew,
  'guest:admit': GuestAdmit,
  /** A newer epoch's call key for a guest in a secret chat's call (docs/secret-chats.md "Guests in encrypted calls"). */
  'guest:key': GuestKey,
  'guest:deny': KnockRef,
  'guest:remove': KnockRef,
} as const;
export type ClientEventName = keyof typeof clientEvents;

/** Every client event may take an acknowledgement callback; it receives one of these. */
export const Ack = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type Ack = z.infer<typeof Ack>;

/** Who is calling (or answering): the incoming-call dialog shows their picture when they have one. */
const CallPeer = z.object({ id: Id, name: z.string(), avatarUrl: z.string().nullable().optional() });

/**
 * Who receives what (the server sends each event to user rooms, i.e. every tab of a user, unless noted):
 * - message:new — sockets that joined the conversation (conversation:join), the sender's included.
 * - message:notify — the other members' sockets that have NOT joined it (unread badge, sound). Each socket gets
 *   one frame per message: a joined socket gets message:new only, never both. Clients may still treat the two
 *   alike and deduplicate by message id.
 * - message:deleted, message:edited, reactions:update, conversation:pins — every member, the actor's own tabs included.
 * - message:hidden — the user's own tabs only (hidden for them alone, or shown again).
 * - receipts:update — the reader's other tabs (all of them when the request named no socketId), and the sender of
 *   a message the first time anyone reads it (its ✓), gathered per conversation within TIMINGS.receiptAnnounceMs;
 *   no other member (server/messages/receipt-announcer.ts).
 * - conversations:new — every member of the new conversation, the creator's tabs included.
 * - conversation:updated — every member after a change of members, roles, title or picture (a member added
 *   hears conversations:new instead); conversation:removed — everyone who lost the conversation (left, was
 *   removed, or the group ended), on all their tabs; their sockets left its room before either was sent.
 * - conversation:typing — the other members' sockets that joined the conversation (where it is shown), at most
 *   once per TIMINGS.typingIdleMs per typist; a message from the typist ends it without a typing-off.
 * - call:* — the other members; call:accepted and call:declined also reach the actor's
 *   other tabs (so they stop ringing), never the tab that sent them.
 * - call:invite is refused in its ack ({ok:false, message}) when no other member has a connected tab.
 * - groupCall:started — in a group too large to ring, its members who have not muted it, the starter excepted.
 * - groupCall:state — every member of the group; groupCall:moved — the joiner's other tabs; groupCall:muted and
 *   groupCall:removed — every tab of the participant an owner or admin muted or removed.
 * - presence:update, profile:update — the user and everyone related (friends, pending requests, shared conversations).
 * - contacts:* — the other side of the request.
 *
 * A socket lives as long as its sign-in (only that socket is concerned by these):
 * - session:expiring — about 60 s before the access token the socket authenticated with expires (at once when
 *   less remains). The client answers with `session:renew {token}`: a fresh access token of the same user, which
 *   moves the socket's deadline to that token's expiry (ack {ok:true}; {ok:false, message} leaves it unchanged).
 * - session:expired — sent right before the server closes a socket whose token expired without a renewal
 *   (socket.io then reports `io server disconnect` and does not reconnect by itself: refresh, then reconnect).
 * - session:closed — the server closed the socket for good: `logout` (that sign-in was signed out, in any tab)
 *   or `tooManyConnections` (the user opened more than 20 sockets; the oldest go), or `deactivated` (an
 *   administrator deactivated the account: docs/administration.md). `message` is for the user.
 */
export const serverEvents = {
  'message:new': z.object({ message: Message }),
  'message:notify': z.object({ conversationId: Id, message: Message }),
  /** A thread reply: the group's joined sockets and the thread's followers elsewhere; `thread` is the root's summary. */
  'thread:reply': z.object({ conversationId: Id, message: Message, thread: ThreadSummary }),
  /** One read a thread, or followed or unfollowed it: every tab of theirs (the «Обсуждения» count). */
  'thread:read': z.object({ rootId: Id }),
  /** A thread reply's deletion carries its root and the root's summary as it is now. */
  /**
   * A poll's votes changed or it was closed: the chat's joined sockets (without `mine`), and the voter's own sockets
   * (with it). An anonymous poll's payload names nobody.
   */
  'poll:updated': z.object({ conversationId: Id, messageId: Id, poll: PollInfo }),
  'message:deleted': z.object({
    conversationId: Id,
    messageId: Id,
    threadRootId: Id.optional(),
    thread: ThreadSummary.optional(),
  }),
  /** The sender changed the text (only when it changed); `mentions` are the new text's. */
  'message:edited': z.object({
    conversationId: Id,
    messageId: Id,
    content: z.string(),
    editedAt: IsoDate,
    mentions: z.array(Id).optional(),
    /** The new text's formatting (absent: plain). */
    entities: z.array(TextEntity).optional(),
  }),
  /** A message's link card arrived, or the sender removed it (`preview: null`); to every member. */
  'message:preview': z.object({ conversationId: Id, messageId: Id, preview: LinkPreview.nullable() }),
  /** The user hid these messages for themselves (`hidden: false`: showed them again). */
  'message:hidden': z.object({ conversationId: Id, messageIds: z.array(Id), hidden: z.boolean() }),
  /** The conversation's pinned messages as they are now, newest pin first. */
  'conversation:pins': z.object({ conversationId: Id, pins: z.array(Message) }),
  /** The message's reactions as they are now (all of them, so applying it twice is harmless). */
  'reactions:update': z.object({ conversationId: Id, messageId: Id, reactions: z.array(Reaction) }),
  /** Only receipts that were new; status is always READ for now. */
  'receipts:update': z.object({
    conversationId: Id,
    userId: Id,
    messageIds: z.array(Id),
    status: Receipt.shape.status,
  }),
  'conversations:new': z.object({ conversation: ConversationEntry.shape.conversation }),
  'conversation:updated': z.object({ conversation: ConversationEntry.shape.conversation }),
  'conversation:removed': z.object({ conversationId: Id }),
  /** One's own settings of a chat changed (another tab or device): every tab of the user. */
  'conversation:settings': z.object({ conversationId: Id, settings: ChatSettings }),
  'contacts:request:new': z.object({ contact: Contact }),
  'contacts:request:accepted': z.object({ contact: Contact }),
  'contacts:removed': z.object({ contactId: Id, userId: Id }),
  'conversation:typing': z.object({ conversationId: Id, userId: Id, typing: z.boolean() }),
  /** ONLINE/AWAY/DND when the first socket connects (the chosen status), OFFLINE with lastSeenAt when the last goes. */
  'presence:update': z.object({ userId: Id, status: PresenceStatus, lastSeenAt: IsoDate.nullable() }),
  'profile:update': z.object({
    userId: Id,
    avatarUrl: z.string().nullable(),
    displayName: z.string(),
    /** Present when an administrator deactivated (true) or reactivated (false) the account. */
    deactivated: z.boolean().optional(),
    /** Present when the status of one's own was set, changed or cleared (null), by its owner or at its time. */
    customStatus: CustomStatus.nullable().optional(),
  }),
  /** An administrator acted on one of the user's reports (docs/administration.md). */
  'report:resolved': z.object({ notice: ReportNotice }),
  /** `group`: a group's call is ringing (answer with groupCall:join, decline with groupCall:decline). */
  'call:incoming': z.object({ conversationId: Id, from: CallPeer, video: z.boolean(), group: z.boolean().optional() }),
  'call:accepted': z.object({ conversationId: Id, from: CallPeer, video: z.boolean() }),
  'call:declined': z.object({ conversationId: Id, from: CallPeer }),
  'call:ended': z.object({ conversationId: Id, from: CallPeer }),
  /**
   * A call started in a group too large to ring (over GROUP_CALL_RING_MAX members): the members who have not
   * muted it, the starter excepted. `title`: the group's.
   */
  'groupCall:started': z.object({ conversationId: Id, from: CallPeer, video: z.boolean(), title: z.string() }),
  /** A group's call started, someone joined or left, or it ended (`call: null`): every member of the group. */
  'groupCall:state': z.object({ conversationId: Id, call: GroupCall.nullable() }),
  /** I joined the group's call from another tab or device: this one's part in it is over. My other tabs. */
  'groupCall:moved': z.object({ conversationId: Id }),
  /** The group's owner or an admin turned my microphone off («Выключить микрофон»). My tabs. */
  'groupCall:muted': z.object({ conversationId: Id }),
  /** The group's owner or an admin took me out of the call («Удалить из звонка»). My tabs. */
  'groupCall:removed': z.object({ conversationId: Id }),
  'session:expiring': z.object({ expiresAt: IsoDate }),
  'session:expired': z.object({}),
  /** A secret chat's log grew (a commit or a welcome): every member's tabs. */
  'secret:log': SecretLogEvent,
  /** Secret chats with devices to add or remove (a member signed in on a new browser, or a sign-in ended). */
  'secret:pending': SecretPendingEvent,
  /** A member of these secret chats signed in on their first browser: add it, send what waited for it. */
  'secret:firstDevice': SecretFirstDeviceEvent,
  /** A new sign-in of this person asks for the identity key (`id`), or a request was answered. */
  'secret:approval': z.object({ id: Id, answered: z.boolean() }),
  /** A history import's progress, at most every IMPORT_PROGRESS_MS: the importer's tabs only. */
  'import:updated': z.object({ job: ImportJob }),
  /**
   * Guests waiting to join a call (docs/behaviour.md §10.40): the conversation's members (a named room's: the link's
   * maker), the whole list each time. `ring` is true for a new knock, at most once per GUEST.ringEveryMs per link;
   * a decision or a guest giving up sends the list again without it.
   */
  'guest:waiting': z.object({
    room: z.string(),
    conversationId: Id.nullable(),
    guests: z.array(WaitingGuest),
    ring: z.boolean(),
  }),
  /**
   * A guest link of the room was made or revoked (by anyone, on any process): «Ссылки на звонки» of the room reads
   * its list again. To the conversation's members; a named room's: to the link's maker.
   */
  'guest:links': z.object({ room: z.string() }),
  /**
   * An admitted guest of a secret chat's call has no call key (its socket was reconnecting when it was let in, or
   * missed a newer key): a decider's device in the call checks the key's MAC and seals the current call key to it.
   */
  'guest:key-request': z.object({ room: z.string(), knockId: Id, e2ee: WaitingGuestE2ee }),
  /** One's chat folders changed (docs/behaviour.md §10.47): the whole list, to every device of their owner. */
  'folders:updated': z.object({ folders: z.array(ChatFolder) }),
  'session:closed': z.object({ reason: z.enum(['logout', 'tooManyConnections', 'deactivated']), message: z.string() }),
} as const satisfies Record<ServerEventName, z.ZodType>;
export type { ServerEventName };
export type ServerEvent<K extends ServerEventName> = z.infer<(typeof serverEvents)[K]>;
export type ClientEvent<K extends ClientEventName> = z.infer<(typeof clientEvents)[K]>;
