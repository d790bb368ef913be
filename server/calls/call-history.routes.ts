// GET /api/calls: the user's call history for the calls page, newest first, from the CALL entries of the
// conversations they are in and can see (from joining on or the last «Очистить историю», not deleted). Who the
// other side is comes from the conversation, which the client already has in its list.
import fp from 'fastify-plugin';
import { contractRoute } from '../http/contract-route';
import { toCallInfo } from '../messages/message-view';

export const callHistoryRoutes = fp(
  async (app) => {
    const { db } = app;
    contractRoute(app, 'callHistory', async ({ userId, query }) => {
      // Older than a given entry: by its position in time (created_at, then id), as the list is ordered.
      const before = query.before
        ? await db
            .selectFrom('messages as m')
            .innerJoin('conversation_members as cm', 'cm.conversation_id', 'm.conversation_id')
            .select(['m.created_at', 'm.id'])
            .where('m.id', '=', query.before)
            .where('cm.user_id', '=', userId)
            .executeTakeFirst()
        : undefined;
      const rows = await db
        .selectFrom('calls as c')
        .innerJoin('messages as m', 'm.id', 'c.message_id')
        .innerJoin('conversation_members as cm', (j) =>
          j.onRef('cm.conversation_id', '=', 'm.conversation_id').on('cm.user_id', '=', userId),
        )
        .select([
          'm.id',
          'm.conversation_id',
          'm.created_at',
          'c.video',
          'c.outcome',
          'c.caller_id',
          'c.duration_sec',
          'c.group_call',
          'c.participant_ids',
        ])
        .whereRef('m.seq', '>', 'cm.visible_from_seq')
        .where('m.deleted_at', 'is', null)
        .$if(before !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb('m.created_at', '<', before?.created_at as string),
              eb.and([eb('m.created_at', '=', before?.created_at as string), eb('m.id', '<', before?.id as string)]),
            ]),
          ),
        )
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(query.limit + 1)
        .execute();
      const page = rows.slice(0, query.limit);
      return {
        calls: page.map((r) => ({
          id: r.id,
          conversationId: r.conversation_id,
          createdAt: r.created_at,
          call: toCallInfo(r),
        })),
        nextBefore: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
      };
    });
  },
  {
    name: 'call-history-routes',
    encapsulate: true,
    decorators: { fastify: ['db', 'authenticate'] },
    dependencies: ['base', 'authentication'],
  },
);
