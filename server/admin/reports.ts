// «Пожаловаться»: a report on a message (with the reporter's copy of it and of the few messages before it, kept
// even if they are deleted later) or on a person. Administrators see the open ones in «Администрирование» and
// delete the message for everyone, deactivate the sender, or dismiss; every reporter of that message or person is
// told the outcome (`report:resolved`, and a notice waiting for them until they have seen it).
import { randomUUID } from 'node:crypto';
import type { AdminReport, ReportNotice, ReportOutcome, ReportReason } from '../../src/contract/administration';
import type { Clock } from '../clock';
import { isMember } from '../conversations/membership';
import type { Database } from '../db/database';
import type { ReportsTable } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { MESSAGE_NOT_FOUND } from '../messages/delete-message';
import type { RealtimeHub } from '../realtime/hub';
import type { Accounts } from './accounts';
import { notHiddenBy } from '../messages/not-hidden';

export const CONTEXT_MESSAGES = 5;
const EXCERPT_LENGTH = 120;
const LABELS: Record<string, string> = { IMAGE: 'Изображение', FILE: 'Файл', AUDIO: 'Голосовое сообщение' };

/** A message's words for a report: its text, or what it carries when it has none. */
const textOf = (m: { type: string; content: string }) => m.content.trim() || LABELS[m.type] || 'Сообщение';

export interface ReportsDeps {
  db: Database;
  clock: Clock;
  realtime: Pick<RealtimeHub, 'toUser'>;
  accounts: Pick<Accounts, 'deactivate'>;
  /** Deletes a message for everyone as a moderator (delete-message.ts). */
  deleteMessage(byUserId: string, messageId: string, moderator: true): Promise<void>;
}

export function createReports({ db, clock, realtime, accounts, deleteMessage }: ReportsDeps) {
  const now = () => new Date(clock.now()).toISOString();

  async function fileOnMessage(reporterId: string, messageId: string) {
    const m = await db
      .selectFrom('messages')
      .select(['id', 'conversation_id', 'sender_id', 'type', 'content', 'created_at', 'seq'])
      .where('id', '=', messageId)
      .where('deleted_at', 'is', null)
      .where('type', '!=', 'SYSTEM')
      .executeTakeFirst();
    if (!m || !(await isMember(db, m.conversation_id, reporterId))) throw notFound(MESSAGE_NOT_FOUND);
    if (m.sender_id === reporterId) throw badRequest('Нельзя пожаловаться на своё сообщение');
    const before = await db
      .selectFrom('messages as m')
      .innerJoin('users as u', 'u.id', 'm.sender_id')
      .select(['m.type', 'm.content', 'm.created_at', 'u.display_name'])
      .where('m.conversation_id', '=', m.conversation_id)
      .where('m.seq', '<', m.seq)
      .where('m.deleted_at', 'is', null)
      .where('m.type', '!=', 'SYSTEM')
      .where(notHiddenBy(reporterId, 'm.id'))
      .orderBy('m.seq', 'desc')
      .limit(CONTEXT_MESSAGES)
      .execute();
    const context = before
      .reverse()
      .map((r) => ({ authorName: r.display_name, text: textOf(r), createdAt: r.created_at }));
    return { target: m.sender_id, message: m, text: textOf(m), context };
  }

  async function notify(rows: readonly Pick<ReportsTable, 'id' | 'reporter_id'>[]) {
    for (const r of rows) {
      const notice = (await noticesOf(r.reporter_id, [r.id]))[0];
      if (notice) realtime.toUser(r.reporter_id, 'report:resolved', { notice });
    }
  }

  async function noticesOf(reporterId: string, ids?: readonly string[]): Promise<ReportNotice[]> {
    let q = db
      .selectFrom('reports as r')
      .innerJoin('users as u', 'u.id', 'r.target_user_id')
      .select(['r.id', 'r.status', 'r.resolved_at', 'r.message_text', 'u.display_name'])
      .where('r.reporter_id', '=', reporterId)
      .where('r.status', '!=', 'open')
      .where('r.notice_seen_at', 'is', null)
      .orderBy('r.resolved_at', 'desc')
      .limit(50);
    if (ids) q = q.where('r.id', 'in', ids);
    return (await q.execute()).map((r) => ({
      id: r.id,
      outcome: r.status as ReportOutcome,
      resolvedAt: r.resolved_at ?? now(),
      targetName: r.display_name,
      excerpt: r.message_text ? r.message_text.slice(0, EXCERPT_LENGTH) : null,
    }));
  }

  /** Closes the open reports matching `where` with the outcome, and tells their reporters. */
  async function close(
    filter: { messageId?: string; targetUserId?: string; reportId?: string },
    outcome: ReportOutcome,
    by: string,
  ): Promise<void> {
    let q = db
      .updateTable('reports')
      .set({ status: outcome, resolved_by: by, resolved_at: now() })
      .where('status', '=', 'open');
    if (filter.reportId) q = q.where('id', '=', filter.reportId);
    if (filter.messageId) q = q.where('message_id', '=', filter.messageId);
    if (filter.targetUserId) q = q.where('target_user_id', '=', filter.targetUserId);
    const closed = await q.returning(['id', 'reporter_id']).execute();
    await notify(closed);
  }

  return {
    async file(
      reporterId: string,
      body: { messageId?: string; userId?: string; reason: ReportReason; comment?: string },
    ): Promise<void> {
      let row: Omit<ReportsTable, 'status' | 'resolved_by' | 'resolved_at' | 'notice_seen_at'>;
      const base = {
        id: randomUUID(),
        reporter_id: reporterId,
        reason: body.reason,
        comment: body.comment || null,
        created_at: now(),
      };
      if (body.messageId) {
        const open = await db
          .selectFrom('reports')
          .select('id')
          .where('reporter_id', '=', reporterId)
          .where('message_id', '=', body.messageId)
          .where('status', '=', 'open')
          .executeTakeFirst();
        if (open) return; // Reported already: once is enough.
        const m = await fileOnMessage(reporterId, body.messageId);
        row = {
          ...base,
          target_user_id: m.target,
          message_id: m.message.id,
          conversation_id: m.message.conversation_id,
          message_text: m.text,
          context: JSON.stringify(m.context),
        };
      } else {
        const userId = body.userId as string;
        if (userId === reporterId) throw badRequest('Нельзя пожаловаться на самого себя');
        const u = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        if (!u) throw notFound('Пользователь не найден');
        const open = await db
          .selectFrom('reports')
          .select('id')
          .where('reporter_id', '=', reporterId)
          .where('target_user_id', '=', userId)
          .where('message_id', 'is', null)
          .where('status', '=', 'open')
          .executeTakeFirst();
        if (open) return;
        row = {
          ...base,
          target_user_id: userId,
          message_id: null,
          conversation_id: null,
          message_text: null,
          context: null,
        };
      }
      await db.insertInto('reports').values(row).execute();
    },

    async list(status: 'open' | 'closed'): Promise<AdminReport[]> {
      let q = db
        .selectFrom('reports as r')
        .innerJoin('users as rep', 'rep.id', 'r.reporter_id')
        .innerJoin('users as t', 't.id', 'r.target_user_id')
        .leftJoin('messages as m', 'm.id', 'r.message_id')
        .selectAll('r')
        .select([
          'rep.username as reporter_username',
          'rep.display_name as reporter_name',
          't.username as target_username',
          't.display_name as target_name',
          't.deactivated_at as target_deactivated_at',
          'm.deleted_at as message_deleted_at',
          'm.created_at as message_created_at',
        ])
        .orderBy('r.created_at', status === 'open' ? 'asc' : 'desc')
        .limit(200);
      q = status === 'open' ? q.where('r.status', '=', 'open') : q.where('r.status', '!=', 'open');
      return (await q.execute()).map((r) => ({
        id: r.id,
        reason: r.reason as ReportReason,
        comment: r.comment,
        createdAt: r.created_at,
        status: r.status as AdminReport['status'],
        reporter: { id: r.reporter_id, username: r.reporter_username, displayName: r.reporter_name },
        target: {
          id: r.target_user_id,
          username: r.target_username,
          displayName: r.target_name,
          deactivated: r.target_deactivated_at !== null,
        },
        message:
          r.message_id && r.conversation_id
            ? {
                id: r.message_id,
                conversationId: r.conversation_id,
                text: r.message_text ?? '',
                // Gone from the database (retention) counts as deleted too.
                deleted: r.message_deleted_at !== null || r.message_created_at === null,
                createdAt: r.message_created_at ?? r.created_at,
              }
            : null,
        context: r.context ? JSON.parse(r.context) : [],
      }));
    },

    async resolve(adminId: string, reportId: string, action: 'delete' | 'deactivate' | 'dismiss'): Promise<void> {
      const r = await db.selectFrom('reports').selectAll().where('id', '=', reportId).executeTakeFirst();
      if (!r) throw notFound('Жалоба не найдена');
      if (r.status !== 'open') throw badRequest('Жалоба уже рассмотрена');
      if (action === 'dismiss') return close({ reportId }, 'dismissed', adminId);
      if (action === 'delete') {
        if (!r.message_id) throw badRequest('В жалобе нет сообщения');
        await deleteMessage(adminId, r.message_id, true).catch((err: unknown) => {
          // Deleted already (by its sender, say): the report is still answered.
          if (!(err instanceof Error && err.message === MESSAGE_NOT_FOUND)) throw err;
        });
        return close({ messageId: r.message_id }, 'deleted', adminId);
      }
      await accounts.deactivate(r.target_user_id, adminId);
      return close({ targetUserId: r.target_user_id }, 'deactivated', adminId);
    },

    notices: (reporterId: string) => noticesOf(reporterId),

    async seen(reporterId: string, ids: readonly string[]): Promise<void> {
      await db
        .updateTable('reports')
        .set({ notice_seen_at: now() })
        .where('reporter_id', '=', reporterId)
        .where('id', 'in', ids)
        .where('status', '!=', 'open')
        .execute();
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
