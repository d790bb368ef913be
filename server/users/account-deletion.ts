// Deleting one's account (docs/accounts.md): every sign-in ends at once (sign-ins.ts), the profile becomes
// «Удалённый аккаунт» without picture, bio or email in everyone's chats — the messages stay with those who have
// them — friends and requests go, and push subscriptions with them. The username and EBLID stay held for
// RELEASE_AFTER_MS (no one can pose as the person at once) and are then given up by `releaseExpired`.
import { sql } from 'kysely';
import type { SignIns } from '../auth/sign-ins';
import type { Clock } from '../clock';
import type { ConversationListCache } from '../conversations/list-cache';
import type { Database } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { savedChatId } from '../saved/saved-chat';
import { relatedUserIds } from './related-users';
import { DELETED_NAME } from './user-view';

export { DELETED_NAME };
export const RELEASE_AFTER_MS = 30 * 24 * 3600 * 1000;

export interface AccountDeletionDeps {
  db: Database;
  clock: Clock;
  lists: Pick<ConversationListCache, 'changed'>;
  realtime: Pick<RealtimeHub, 'toUsers' | 'toUser'>;
  signIns: Pick<SignIns, 'endAllBut'>;
}

export function createAccountDeletion({ db, clock, lists, realtime, signIns }: AccountDeletionDeps) {
  return {
    async delete(userId: string): Promise<void> {
      const peers = await relatedUserIds(db, userId);
      await signIns.endAllBut(userId, null);
      const contacts = await db
        .selectFrom('contacts')
        .select(['id', 'requester_id', 'addressee_id'])
        .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)]))
        .execute();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            display_name: DELETED_NAME,
            avatar_url: null,
            bio: null,
            email: null,
            email_lower: null,
            status: 'OFFLINE',
            custom_status_emoji: '',
            custom_status_text: '',
            custom_status_expires_at: null,
            deleted_at: new Date(clock.now()).toISOString(),
          })
          .where('id', '=', userId)
          .execute();
        if (contacts.length) {
          await trx
            .deleteFrom('contacts')
            .where(
              'id',
              'in',
              contacts.map((c) => c.id),
            )
            .execute();
        }
        await trx.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
        // The organisation's person may make a new account here later (oidc.routes.ts).
        await trx.deleteFrom('oidc_links').where('user_id', '=', userId).execute();
        await trx.deleteFrom('secret_backup_chunks').where('user_id', '=', userId).execute();
        await trx.deleteFrom('secret_backups').where('user_id', '=', userId).execute();
        // Nothing goes out in the name of a deleted account, and its notes to itself go with it (§10.31, §10.32).
        await trx.deleteFrom('scheduled_messages').where('user_id', '=', userId).execute();
        // The chat folders are the account's own (§10.47); their chats' rows go with them.
        await trx.deleteFrom('chat_folders').where('user_id', '=', userId).execute();
        await trx
          .updateTable('messages')
          .set({ content: '', deleted_at: new Date(clock.now()).toISOString() })
          .where('conversation_id', '=', savedChatId(userId))
          .where('deleted_at', 'is', null)
          .execute();
      });
      lists.changed([userId, ...peers]);
      realtime.toUsers(peers, 'profile:update', {
        userId,
        avatarUrl: null,
        displayName: DELETED_NAME,
        customStatus: null,
      });
      for (const c of contacts) {
        const other = c.requester_id === userId ? c.addressee_id : c.requester_id;
        realtime.toUser(other, 'contacts:removed', { contactId: c.id, userId });
      }
    },

    /** Gives up the usernames and EBLIDs of accounts deleted RELEASE_AFTER_MS ago; returns how many. */
    async releaseExpired(): Promise<number> {
      const cutoff = new Date(clock.now() - RELEASE_AFTER_MS).toISOString();
      // Placeholders no one can type: a username never holds ':', an EBLID is four digits.
      const res = await db
        .updateTable('users')
        .set({
          username: sql<string>`'deleted:' || id`,
          username_lower: sql<string>`'deleted:' || id`,
          eblid: sql<string>`'deleted:' || id`,
        })
        .where('deleted_at', '<=', cutoff)
        .where('eblid', 'not like', 'deleted:%')
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
  };
}
