// «Хранить сообщения»: when the administrators set `retentionDays`, messages older than that many days are deleted
// for good — the rows, not a «Сообщение удалено» mark — with what hangs on them (attachments' links, receipts,
// reactions, voice waveforms, pins, mentions, hidden marks and search-index rows go by the schema's cascades and
// triggers; the call-log rows of CALL entries by hand), and the uploads that only they used. Reports keep their own
// copy of a reported message's text: that copy is the reporter's and stays. A reply to a purged message shows no
// quote. No socket event is sent (a purge may take away thousands at once): the conversation lists of the members
// are rebuilt, and history simply no longer has them. A secret chat's encrypted uploads go by age and with their chat
// (purgeSecretUploads), with or without retention.
//
// The job runs shortly after start and then every hour, on the server's clock; `run()` is callable directly.
// Batches of RETENTION_BATCH messages, each one transaction, with the event loop handed back between them.
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { UploadStorage } from '../uploads/storage';
import type { ClockTimer } from '../clock';
import { readSettings } from './server-settings';

/** Messages deleted per transaction. */
export const RETENTION_BATCH = 500;
/** The first run after start (not at once: start-up has enough to do). */
export const RETENTION_FIRST_RUN_MS = 60_000;
/** Then once an hour. */
export const RETENTION_EVERY_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface RetentionOutcome {
  /** Messages deleted. */
  messages: number;
  /** Uploads deleted (their rows and stored bytes). */
  uploads: number;
}

export interface Retention {
  /** One pass: deletes what is older than `retentionDays` (nothing when unset). A call during a pass shares it. */
  run(): Promise<RetentionOutcome>;
  /** Resolves when no pass is under way (tests, after moving the clock). */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    retention: Retention;
  }
}

export const retentionPlugin = fp<{ uploads: UploadStorage }>(
  async (app, { uploads }) => {
    const { clock, db, lists } = app;
    let closing = false;
    let current: Promise<RetentionOutcome> | null = null;

    /** Deletes up to RETENTION_BATCH messages created before `cutoff`; returns what went and the bytes to remove. */
    async function purgeBatch(cutoff: string) {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('messages')
          .select(['id', 'conversation_id'])
          .where('created_at', '<', cutoff)
          .orderBy('seq')
          .limit(RETENTION_BATCH)
          .execute();
        if (rows.length === 0) return { messages: 0, conversations: [], keys: [] };
        const ids = rows.map((r) => r.id);
        const attached = await trx
          .selectFrom('message_attachments')
          .select('upload_id')
          .distinct()
          .where('message_id', 'in', ids)
          .execute();
        await trx.deleteFrom('calls').where('message_id', 'in', ids).execute();
        await trx.deleteFrom('messages').where('id', 'in', ids).execute();
        // Uploads no message uses any more (a forwarded copy shares its original's) and that are nobody's avatar.
        const orphans = attached.length
          ? await trx
              .selectFrom('uploads as u')
              .select(['u.id', 'u.storage_key'])
              .where(
                'u.id',
                'in',
                attached.map((a) => a.upload_id),
              )
              .where(({ exists, not, selectFrom }) =>
                not(
                  exists(
                    selectFrom('message_attachments as a').select('a.upload_id').whereRef('a.upload_id', '=', 'u.id'),
                  ),
                ),
              )
              .where(({ exists, not, selectFrom }) =>
                not(
                  exists(
                    selectFrom('users').select('id').where('avatar_url', 'like', sql<string>`('%/' || u.storage_key)`),
                  ),
                ),
              )
              .where(({ exists, not, selectFrom }) =>
                not(
                  exists(
                    selectFrom('conversations')
                      .select('id')
                      .where('avatar_url', 'like', sql<string>`('%/' || u.storage_key)`),
                  ),
                ),
              )
              .execute()
          : [];
        if (orphans.length)
          await trx
            .deleteFrom('uploads')
            .where(
              'id',
              'in',
              orphans.map((o) => o.id),
            )
            .execute();
        return {
          messages: rows.length,
          conversations: [...new Set(rows.map((r) => r.conversation_id))],
          keys: orphans.map((o) => o.storage_key),
        };
      });
    }

    /** The lists of the affected conversations' members show a new last message (or none). */
    async function listsChanged(conversationIds: readonly string[]): Promise<void> {
      if (conversationIds.length === 0) return;
      const members = await db
        .selectFrom('conversation_members')
        .select(['conversation_id', 'user_id'])
        .where('conversation_id', 'in', conversationIds)
        .execute();
      const byConversation = new Map<string, string[]>();
      for (const m of members)
        byConversation.set(m.conversation_id, [...(byConversation.get(m.conversation_id) ?? []), m.user_id]);
      for (const [conversationId, userIds] of byConversation) lists.changed(userIds, conversationId);
    }

    /**
     * A secret chat's encrypted uploads are tied to no message (the server cannot tell which message names which file):
     * they go when their chat is gone, and, under retention, a day after the cutoff (each is uploaded just before its
     * message is sent, so a file that old belongs to a message already purged).
     */
    async function purgeSecretUploads(cutoff: string | null): Promise<number> {
      let removed = 0;
      while (!closing) {
        const rows = await db
          .selectFrom('uploads')
          .select(['id', 'storage_key'])
          .where('kind', '=', 'SECRET')
          .where((eb) =>
            cutoff === null
              ? eb('conversation_id', 'is', null)
              : eb.or([
                  eb('conversation_id', 'is', null),
                  eb('created_at', '<', new Date(Date.parse(cutoff) - DAY_MS).toISOString()),
                ]),
          )
          .limit(RETENTION_BATCH)
          .execute();
        if (rows.length === 0) break;
        await db
          .deleteFrom('uploads')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        for (const { storage_key: key } of rows) {
          await uploads.remove(key).catch((err) => app.log.warn({ err, key }, 'retention: upload not removed'));
          removed++;
        }
        if (rows.length < RETENTION_BATCH) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return removed;
    }

    async function pass(): Promise<RetentionOutcome> {
      const outcome: RetentionOutcome = { messages: 0, uploads: 0 };
      const { retentionDays } = await readSettings(db);
      const cutoff = retentionDays ? new Date(clock.now() - retentionDays * DAY_MS).toISOString() : null;
      outcome.uploads += await purgeSecretUploads(cutoff);
      if (!cutoff) return outcome;
      while (!closing) {
        const batch = await purgeBatch(cutoff);
        outcome.messages += batch.messages;
        await listsChanged(batch.conversations);
        // After the commit: bytes of a row rolled back must stay. A failed removal leaves an unlisted file only.
        for (const key of batch.keys) {
          await uploads.remove(key).catch((err) => app.log.warn({ err, key }, 'retention: upload not removed'));
          outcome.uploads++;
        }
        if (batch.messages < RETENTION_BATCH) break;
        // Between batches the event loop (and the database) go to requests.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (outcome.messages) app.log.info(outcome, 'retention: old messages deleted');
      return outcome;
    }

    const retention: Retention = {
      run() {
        current ??= pass().finally(() => {
          current = null;
        });
        return current;
      },
      async idle() {
        await current?.catch(() => {});
      },
    };
    app.decorate('retention', retention);

    let timer: ClockTimer | null = null;
    const schedule = (ms: number) => {
      timer = clock.setTimeout(() => {
        retention
          .run()
          .catch((err) => app.log.error({ err }, 'retention failed'))
          .finally(() => {
            if (!closing) schedule(RETENTION_EVERY_MS);
          });
      }, ms);
      timer.unref();
    };
    app.addHook('onReady', async () => schedule(RETENTION_FIRST_RUN_MS));
    app.addHook('onClose', async () => {
      closing = true;
      clock.clearTimeout(timer);
      await retention.idle();
    });
  },
  {
    name: 'retention',
    decorators: { fastify: ['clock', 'db', 'lists'] },
    dependencies: ['base', 'lists'],
  },
);
