// Migrations in order. Add a file and list it here; never edit one that has shipped.
import type { Migration } from 'kysely';
import * as m001 from './001_accounts';
import * as m002 from './002_messaging';
import * as m003 from './003_messaging_indexes';
import * as m004 from './004_message_edits_reactions';
import * as m005 from './005_search';
import * as m006 from './006_read_cursors';
import * as m007 from './007_push_subscriptions';
import * as m008 from './008_voice_and_call_entries';
import * as m009 from './009_sign_ins';
import * as m010 from './010_account_deletion';
import * as m011 from './011_exports';
import * as m012 from './012_deleted_messages_index';
import * as m013 from './013_group_roles';
import * as m014 from './014_blocks';
import * as m015 from './015_chat_settings';
import * as m016 from './016_group_invites';
import * as m017 from './017_message_actions';
import * as m018 from './018_administration';
import * as m019 from './019_secret_chats';
import * as m020 from './020_secret_control';
import * as m021 from './021_secret_uploads';
import * as m022 from './022_secret_backup';
import * as m023 from './023_secret_key_package_digests';
import * as m024 from './024_sign_in_throttle';
import * as m025 from './025_message_privacy';
import * as m026 from './026_directory_open_groups';
import * as m027 from './027_group_history';
import * as m028 from './028_threads';
import * as m029 from './029_link_previews';
import * as m030 from './030_saved_scheduled';
import * as m031 from './031_polls';
import * as m032 from './032_key_package_last_resort';
import * as m033 from './033_secret_identity';
import * as m035 from './035_secret_rejoin';
import * as m036 from './036_history_import';
import * as m037 from './037_guest_links';
import * as m038 from './038_backups';
import * as m039 from './039_oidc_links';
import * as m040 from './040_two_factor';
import * as m041 from './041_passkeys';
import * as m042 from './042_message_entities';
import * as m043 from './043_group_calls';
import * as m044 from './044_marked_unread';
import * as m045 from './045_message_edits';
import * as m046 from './046_custom_status';
import * as m047 from './047_call_hands';
import * as m048 from './048_search_filters';
import * as m049 from './049_chat_media';
import * as m050 from './050_chat_folders';
import * as m051 from './051_call_media_sid';
import * as m052 from './052_search_filter_terms';
import * as m053 from './053_message_days';

export const migrations: Record<string, Migration> = {
  '001_accounts': m001,
  '002_messaging': m002,
  '003_messaging_indexes': m003,
  '004_message_edits_reactions': m004,
  '005_search': m005,
  '006_read_cursors': m006,
  '007_push_subscriptions': m007,
  '008_voice_and_call_entries': m008,
  '009_sign_ins': m009,
  '010_account_deletion': m010,
  '011_exports': m011,
  '012_deleted_messages_index': m012,
  '013_group_roles': m013,
  '014_blocks': m014,
  '015_chat_settings': m015,
  '016_group_invites': m016,
  '017_message_actions': m017,
  '018_administration': m018,
  '019_secret_chats': m019,
  '020_secret_control': m020,
  '021_secret_uploads': m021,
  '022_secret_backup': m022,
  '023_secret_key_package_digests': m023,
  '024_sign_in_throttle': m024,
  '025_message_privacy': m025,
  '026_directory_open_groups': m026,
  '027_group_history': m027,
  '028_threads': m028,
  '029_link_previews': m029,
  '030_saved_scheduled': m030,
  '031_polls': m031,
  '032_key_package_last_resort': m032,
  '033_secret_identity': m033,
  '035_secret_rejoin': m035,
  '036_history_import': m036,
  '037_guest_links': m037,
  '038_backups': m038,
  '039_oidc_links': m039,
  '040_two_factor': m040,
  '041_passkeys': m041,
  '042_message_entities': m042,
  '043_group_calls': m043,
  '044_marked_unread': m044,
  '045_message_edits': m045,
  '046_custom_status': m046,
  '047_call_hands': m047,
  '048_search_filters': m048,
  '049_chat_media': m049,
  '050_chat_folders': m050,
  '051_call_media_sid': m051,
  '052_search_filter_terms': m052,
  '053_message_days': m053,
};
