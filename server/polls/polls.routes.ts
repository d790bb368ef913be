// Polls («Опрос», docs/behaviour.md §10.33 Polls): making one (a POLL message whose content is the question), voting,
// taking a vote back, closing. Members only: anyone else, a removed member included, gets the 404 of a message that
// does not exist. A vote runs in one transaction that first bumps the poll's version (a row lock on PostgreSQL, the
// single writer on SQLite), so a poll's votes are applied one at a time and the (poll, voter, option) key keeps
// a double click from counting twice; the counts are read in the same transaction and go out with that version.
import type { Transaction } from 'kysely';
import fp from 'fastify-plugin';
import type { PollInfo } from '../../src/contract/entities';
import { isSecret } from '../conversations/secret-flag';
import { memberOf, membersFor } from '../conversations/membership';
import type { DB } from '../db/schema';
import { contractRoute } from '../http/contract-route';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { newMessageId } from '../messages/message-id';
import { freshMessage } from '../messages/message-view';
import { publishNew, quietMembers, refuseBlocked, refuseFirstMessage } from '../messages/send-message';
import { pollView, votesOf } from './poll-view';

export const POLL_NOT_FOUND = 'Опрос не найден';
export const POLL_CLOSED = 'Опрос завершён, голосовать уже нельзя';
export const QUIZ_ANSWERED = 'В викторине отвечают один раз';
export const QUIZ_NOT_RETRACTED = 'Ответ в викторине отменить нельзя';
export const NO_POLLS_IN_SECRET = 'В секретных чатах опросов нет';
export const ONE_OPTION_ONLY = 'В этом опросе выбирают один вариант';
export const NO_SUCH_OPTION = 'Такого варианта ответа нет';
export const CLOSE_NOT_ALLOWED = 'Завершить опрос могут автор и администраторы группы';

type Tx = Transaction<DB>;

export const pollsRoutes = fp(
  async (app) => {
    const { blocks, db, lists, realtime, push } = app;

    /** The poll's message if the caller may see it (a member who can read that far back), else 404. */
    async function visiblePoll(userId: string, messageId: string) {
      const message = await db
        .selectFrom('messages')
        .select(['id', 'conversation_id', 'sender_id', 'content', 'seq'])
        .where('id', '=', messageId)
        .where('type', '=', 'POLL')
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!message) throw notFound(POLL_NOT_FOUND);
      const me = await memberOf(db, message.conversation_id, userId).catch(() => {
        throw notFound(POLL_NOT_FOUND);
      });
      if (me.visibleFromSeq > 0 && Number(message.seq) <= me.visibleFromSeq) throw notFound(POLL_NOT_FOUND);
      return { message, me };
    }

    /** Bumps the version (taking the poll's row lock) and returns the poll as it is now in this transaction. */
    async function lockPoll(trx: Tx, messageId: string) {
      await trx
        .updateTable('polls')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('message_id', '=', messageId)
        .execute();
      return trx.selectFrom('polls').selectAll().where('message_id', '=', messageId).executeTakeFirstOrThrow();
    }

    /** The votes of the poll after this transaction's change, in voting order, with the poll's row. */
    async function stateIn(trx: Tx, messageId: string) {
      const [poll, votes] = await Promise.all([
        trx.selectFrom('polls').selectAll().where('message_id', '=', messageId).executeTakeFirstOrThrow(),
        votesOf(trx, [messageId]),
      ]);
      return { poll: { ...poll, version: Number(poll.version) }, votes };
    }

    /**
     * Tells the chat: its open sockets get the poll without anyone's own choice, the caller's sockets get theirs.
     * Returns the caller's view.
     */
    function announce(
      conversationId: string,
      messageId: string,
      userId: string,
      question: string,
      state: Awaited<ReturnType<typeof stateIn>>,
    ): PollInfo {
      const others = pollView(question, state.poll, state.votes, 'others');
      const mine = pollView(question, state.poll, state.votes, { userId });
      realtime.toConversation(conversationId, 'poll:updated', { conversationId, messageId, poll: others });
      realtime.toUser(userId, 'poll:updated', { conversationId, messageId, poll: mine });
      return mine;
    }

    contractRoute(app, 'createPoll', async ({ userId, body }) => {
      const members = await membersFor(db, body.conversationId, userId);
      if (await isSecret(db, body.conversationId)) throw badRequest(NO_POLLS_IN_SECRET);
      await refuseBlocked({ db, blocks }, body.conversationId, userId, members);
      await refuseFirstMessage({ db, blocks }, body.conversationId, userId, members);
      const now = Date.now();
      const row = {
        id: newMessageId(now),
        conversation_id: body.conversationId,
        sender_id: userId,
        type: 'POLL',
        content: body.question,
        reply_to_id: null,
        client_message_id: null,
        created_at: new Date(now).toISOString(),
        deleted_at: null,
      };
      const poll = {
        message_id: row.id,
        conversation_id: body.conversationId,
        options: JSON.stringify(body.options),
        multiple: body.multiple ? 1 : 0,
        anonymous: body.anonymous ? 1 : 0,
        correct_option: body.correctOption,
        explanation: body.correctOption === null ? null : body.explanation || null,
        closed_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('messages').values(row).execute();
        await trx.insertInto('polls').values(poll).execute();
      });
      const message = {
        ...freshMessage(row, null, []),
        poll: pollView(body.question, { ...poll, version: 0 }, [], { userId }),
      };
      publishNew({ lists, realtime, push }, message, members, await quietMembers(db, body.conversationId));
      return { message };
    });

    contractRoute(app, 'votePoll', async ({ userId, body }) => {
      const { message } = await visiblePoll(userId, body.messageId);
      const options = [...new Set(body.optionIds)];
      const state = await db.transaction().execute(async (trx) => {
        const poll = await lockPoll(trx, message.id);
        if (poll.closed_at) throw conflict(POLL_CLOSED);
        const count = (JSON.parse(poll.options) as string[]).length;
        const chosen = options.map((id) => {
          const n = /^\d+$/.test(id) ? Number(id) : -1;
          if (n < 0 || n >= count) throw badRequest(NO_SUCH_OPTION);
          return n;
        });
        if (chosen.length > 1 && Number(poll.multiple) !== 1) throw badRequest(ONE_OPTION_ONLY);
        const votedAt = new Date().toISOString();
        if (poll.correct_option !== null) {
          // A quiz is answered once: the ballot's key refuses a second one, from any tab.
          const taken = await trx
            .insertInto('poll_ballots')
            .values({ message_id: message.id, user_id: userId, voted_at: votedAt })
            .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
            .returning('user_id')
            .execute();
          if (!taken.length) throw conflict(QUIZ_ANSWERED);
        } else {
          // A new choice replaces the old one; the ballot keeps its first time (the place in «Кто голосовал»).
          await trx
            .insertInto('poll_ballots')
            .values({ message_id: message.id, user_id: userId, voted_at: votedAt })
            .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
            .execute();
          await trx
            .deleteFrom('poll_votes')
            .where('message_id', '=', message.id)
            .where('user_id', '=', userId)
            .execute();
        }
        await trx
          .insertInto('poll_votes')
          .values(chosen.map((option) => ({ message_id: message.id, user_id: userId, option })))
          .execute();
        return stateIn(trx, message.id);
      });
      const poll = announce(message.conversation_id, message.id, userId, message.content, state);
      return { conversationId: message.conversation_id, messageId: message.id, poll };
    });

    contractRoute(app, 'retractVote', async ({ userId, body }) => {
      const { message } = await visiblePoll(userId, body.messageId);
      const state = await db.transaction().execute(async (trx) => {
        const poll = await lockPoll(trx, message.id);
        if (poll.closed_at) throw conflict(POLL_CLOSED);
        if (poll.correct_option !== null) throw conflict(QUIZ_NOT_RETRACTED);
        await trx.deleteFrom('poll_votes').where('message_id', '=', message.id).where('user_id', '=', userId).execute();
        await trx
          .deleteFrom('poll_ballots')
          .where('message_id', '=', message.id)
          .where('user_id', '=', userId)
          .execute();
        return stateIn(trx, message.id);
      });
      const poll = announce(message.conversation_id, message.id, userId, message.content, state);
      return { conversationId: message.conversation_id, messageId: message.id, poll };
    });

    contractRoute(app, 'closePoll', async ({ userId, body }) => {
      const { message, me } = await visiblePoll(userId, body.messageId);
      // The author, and in a group its owner and admins (in a direct chat both are plain members: the author only).
      if (message.sender_id !== userId && me.role !== 'OWNER' && me.role !== 'ADMIN')
        throw forbidden(CLOSE_NOT_ALLOWED);
      const state = await db.transaction().execute(async (trx) => {
        const poll = await lockPoll(trx, message.id);
        if (!poll.closed_at) {
          await trx
            .updateTable('polls')
            .set({ closed_at: new Date().toISOString() })
            .where('message_id', '=', message.id)
            .execute();
        }
        return stateIn(trx, message.id);
      });
      const poll = announce(message.conversation_id, message.id, userId, message.content, state);
      return { conversationId: message.conversation_id, messageId: message.id, poll };
    });
  },
  {
    name: 'polls-routes',
    encapsulate: true,
    decorators: { fastify: ['blocks', 'db', 'lists', 'realtime', 'push', 'authenticate'] },
    dependencies: ['base', 'authentication', 'realtime', 'lists', 'push', 'blocks'],
  },
);
