// POST /api/secret/send: a secret chat's message, ciphertext the server stores as it came (type ENCRYPTED). It goes
// through the same writer and the same publishing as every message (send-message.ts): idempotent by
// clientMessageId, message:new to the sockets that have the chat open and message:notify to the members' others,
// the list cache and unread counts, and Web Push that says only «Новое сообщение». No mentions, no quote, no
// attachment (they travel inside the ciphertext), and the search index skips it (search-index.ts). An edit or a
// reaction (`control`) is no news: only message:new to the sockets that have the chat open, so that the devices
// reading it apply it; no list change, no unread count, no message:notify, no push.
import type { z } from 'zod';
import type { Message } from '../../src/contract/entities';
import type { SecretSendBody } from '../../src/contract/secret';
import { membersFor } from '../conversations/membership';
import { isSecret, NOT_SECRET } from '../conversations/secret-flag';
import { badRequest, conflict } from '../http/errors';
import { newMessageId } from '../messages/message-id';
import { freshMessage, toMessages } from '../messages/message-view';
import { createMessageWriter } from '../messages/message-writer';
import { publishNew, quietMembers, refuseBlocked, type SendDeps } from '../messages/send-message';
import type { Devices } from './devices';
import type { SecretGroups } from './secret-groups';

export function createSecretSender(deps: SendDeps & { devices: Devices; groups: Pick<SecretGroups, 'checkSend'> }) {
  const { db, devices, groups } = deps;
  const writer = createMessageWriter(db);

  /** A repeated clientMessageId: the same ciphertext to the same chat is the first message again, else 409. */
  async function retryOf(userId: string, body: z.output<typeof SecretSendBody>): Promise<{ message: Message } | null> {
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('sender_id', '=', userId)
      .where('client_message_id', '=', body.clientMessageId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.conversation_id !== body.conversationId)
      throw conflict('clientMessageId уже использован для другой беседы');
    if (row.type !== 'ENCRYPTED' || row.content !== body.ciphertext || Boolean(row.control) !== Boolean(body.control))
      throw conflict('clientMessageId уже использован для другого сообщения');
    const [message] = await toMessages(db, [row]);
    return { message: message as Message };
  }

  return async function send(userId: string, body: z.output<typeof SecretSendBody>): Promise<{ message: Message }> {
    const device = await devices.ownLive(userId, body.deviceId);
    const members = await membersFor(db, body.conversationId, userId);
    try {
      if (!(await isSecret(db, body.conversationId))) throw badRequest(NOT_SECRET);
      await refuseBlocked(deps, body.conversationId, userId, members);
      await groups.checkSend(body.conversationId, device.id, body.epoch);
    } catch (err) {
      // A retry is answered with the first message even when the group has moved on since.
      const answer = await retryOf(userId, body);
      if (answer) return answer;
      throw err;
    }
    const muted = await quietMembers(db, body.conversationId);
    const row = {
      id: newMessageId(),
      conversation_id: body.conversationId,
      sender_id: userId,
      type: 'ENCRYPTED',
      content: body.ciphertext,
      reply_to_id: null,
      client_message_id: body.clientMessageId,
      created_at: new Date().toISOString(),
      deleted_at: null,
      mentions: null,
      control: body.control ? 1 : null,
    };
    if ((await writer.write({ row, uploadIds: [] })) === 'duplicate') {
      const answer = await retryOf(userId, body);
      if (!answer) throw new Error('clientMessageId conflict without a stored message');
      return answer;
    }
    const message = freshMessage(row, null, [], { voice: null });
    if (body.control) deps.realtime.toConversation(message.conversationId, 'message:new', { message });
    else publishNew(deps, message, members, muted);
    return { message };
  };
}
