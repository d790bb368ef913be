// The socket.io contract (spec point 7). Client → server events are validated with these schemas on the
// server; server → client payloads are typed from them on the client.
import { z } from 'zod';
import { Contact, ConversationEntry, Id, IsoDate, Message, PresenceStatus, Receipt } from './entities';

export const ConversationRef = z.strictObject({ conversationId: Id });
/** conversation:join / conversation:leave accept the bare id (as the seed's client sends it) or {conversationId}. */
export const ConversationJoin = z.union([Id, ConversationRef]);
export const TypingIn = z.strictObject({ conversationId: Id, typing: z.boolean() });
export const CallInvite = z.strictObject({ conversationId: Id, video: z.boolean() });
export const CallAccept = CallInvite;
export const CallRef = ConversationRef;

export const clientEvents = {
  'conversation:join': ConversationJoin,
  'conversation:leave': ConversationJoin,
  'conversation:typing': TypingIn,
  'call:invite': CallInvite,
  'call:accept': CallAccept,
  'call:decline': CallRef,
  'call:end': CallRef,
} as const;
export type ClientEventName = keyof typeof clientEvents;

/** Every client event may take an acknowledgement callback; it receives one of these. */
export const Ack = z.union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), message: z.string() })]);
export type Ack = z.infer<typeof Ack>;

const CallPeer = z.object({ id: Id, name: z.string() });

/**
 * Who receives what (the server sends each event to user rooms, i.e. every tab of a user, unless noted):
 * - message:new — sockets that joined the conversation (conversation:join), the sender's included.
 * - message:notify — every member except the sender, joined or not (unread badge, sound).
 * - message:deleted, receipts:update — every member, the actor's own tabs included.
 * - conversations:new — every member of the new conversation, the creator's tabs included.
 * - conversation:typing, call:* — the other members (never the actor's own tabs).
 * - presence:update, profile:update — the user and everyone related (friends, pending requests, shared conversations).
 * - contacts:* — the other side of the request.
 */
export const serverEvents = {
  'message:new': z.object({ message: Message }),
  'message:notify': z.object({ conversationId: Id, message: Message }),
  'message:deleted': z.object({ conversationId: Id, messageId: Id }),
  /** Only receipts that were new; status is always READ for now. */
  'receipts:update': z.object({ conversationId: Id, userId: Id, messageIds: z.array(Id), status: Receipt.shape.status }),
  'conversations:new': z.object({ conversation: ConversationEntry.shape.conversation }),
  'contacts:request:new': z.object({ contact: Contact }),
  'contacts:request:accepted': z.object({ contact: Contact }),
  'contacts:removed': z.object({ contactId: Id, userId: Id }),
  'conversation:typing': z.object({ conversationId: Id, userId: Id, typing: z.boolean() }),
  /** ONLINE/AWAY/DND when the first socket connects (the chosen status), OFFLINE with lastSeenAt when the last goes. */
  'presence:update': z.object({ userId: Id, status: PresenceStatus, lastSeenAt: IsoDate.nullable() }),
  'profile:update': z.object({ userId: Id, avatarUrl: z.string().nullable(), displayName: z.string() }),
  'call:incoming': z.object({ conversationId: Id, from: CallPeer, video: z.boolean() }),
  'call:accepted': z.object({ conversationId: Id, from: CallPeer, video: z.boolean() }),
  'call:declined': z.object({ conversationId: Id, from: CallPeer }),
  'call:ended': z.object({ conversationId: Id, from: CallPeer }),
} as const;
export type ServerEventName = keyof typeof serverEvents;
export type ServerEvent<K extends ServerEventName> = z.infer<(typeof serverEvents)[K]>;
export type ClientEvent<K extends ClientEventName> = z.infer<(typeof clientEvents)[K]>;
