// Migrations in order. Add a file and list it here; never edit one that has shipped.
import type { Migration } from 'kysely';
import * as m001 from './001_accounts';
import * as m002 from './002_messaging';
import * as m003 from './003_messaging_indexes';
import * as m007 from './007_push_subscriptions';

export const migrations: Record<string, Migration> = {
  '001_accounts': m001,
  '002_messaging': m002,
  '003_messaging_indexes': m003,
  '007_push_subscriptions': m007,
};
