// Every feature's effects joined by registry line: what the composition root is given to provide the registry's lines
// (src/main.tsx passes it to createRuntime; src/machines/app/wiring.ts provides each line from its entry). Each
// feature's map is its own (src/services/<feature>/effects.ts); the checks at the end fail to compile when a line
// whose code loads with its effects has none here, or an entry names no registry line.
import type { EffectsFit } from '../../machines/app/app.protocol';
import { accountEffects } from '../account/effects';
import { adminEffects } from '../admin/effects';
import { authEffects } from '../auth/effects';
import { blockingEffects } from '../blocking/effects';
import { callsEffects } from '../calls/effects';
import { chatsEffects } from '../chats/effects';
import { composerEffects } from '../composer/effects';
import { contactsEffects } from '../contacts/effects';
import { conversationEffects } from '../conversation/effects';
import { conversationInfoEffects } from '../conversationInfo/effects';
import { directoryEffects } from '../directory/effects';
import { foldersEffects } from '../folders/effects';
import { groupInvitesEffects } from '../groupInvites/effects';
import { guestsEffects } from '../guests/effects';
import { historyImportEffects } from '../historyImport/effects';
import { inviteCodesEffects } from '../inviteCodes/effects';
import { messageActionsEffects } from '../messageActions/effects';
import { notificationsEffects } from '../notifications/effects';
import { pollsEffects } from '../polls/effects';
import { profileEffects } from '../profile/effects';
import { realtimeEffects } from '../realtime/effects';
import { reportsEffects } from '../reports/effects';
import { scheduledEffects } from '../scheduled/effects';
import { searchEffects } from '../search/effects';
import { secretChatsEffects } from '../secretChats/effects';
import { sessionEffects } from '../session/effects';
import { themeEffects } from '../theme/effects';
import { threadsEffects } from '../threads/effects';

export const appEffects = {
  ...sessionEffects,
  ...realtimeEffects,
  ...notificationsEffects,
  ...chatsEffects,
  ...composerEffects,
  ...callsEffects,
  ...contactsEffects,
  ...searchEffects,
  ...profileEffects,
  ...messageActionsEffects,
  ...themeEffects,
  ...conversationEffects,
  ...accountEffects,
  ...groupInvitesEffects,
  ...guestsEffects,
  ...blockingEffects,
  ...conversationInfoEffects,
  ...directoryEffects,
  ...authEffects,
  ...reportsEffects,
  ...adminEffects,
  ...inviteCodesEffects,
  ...secretChatsEffects,
  ...threadsEffects,
  ...pollsEffects,
  ...scheduledEffects,
  ...historyImportEffects,
  ...foldersEffects,
} as const;

export type AppEffects = typeof appEffects;

// --- compile-time check: the effects and the registry's lines agree ---
type Verdict<T extends Record<string, true>> = T;
/** Every line marked load: 'wired' has its entry, and every entry is a registry line's. */
export type AppEffectsFit = Verdict<EffectsFit<AppEffects>>;
