// The one map from systemId to the actor registered under it, typed by each machine's protocol, and the typed
// getter that machines (and, through src/core/ui/RuntimeContext.tsx, views) use instead of `system.get`. It imports
// protocols only, so any machine can use it without an import cycle; app.machine.ts checks that every spawned
// child matches its entry here.
import type { ActorSystem } from 'xstate';
import type { AvatarRef } from '../../features/profile/machines/avatar/avatar.protocol';
import type { CallRef } from '../../features/calls/machines/call/call.protocol';
import type { CallsPageRef } from '../../features/calls/machines/callsPage/callsPage.protocol';
import type { ChatsRef } from '../../features/chats/machines/chats/chats.protocol';
import type { ChatsFooterRef } from '../../features/chats/machines/chatsFooter/chatsFooter.protocol';
import type { ConnectivityRef } from './connectivity/connectivity.protocol';
import type { ContactCodeRef } from '../../features/contacts/machines/contactCode/contactCode.protocol';
import type { ContactsRef } from '../../features/contacts/machines/contacts/contacts.protocol';
import type { GroupDialogRef } from '../../features/contacts/machines/groupDialog/groupDialog.protocol';
import type { NotificationsRef } from '../../features/notifications/machines/notifications/notifications.protocol';
import type { OfflineStoreRef } from './offlineStore/offlineStore.protocol';
import type { ProfileRef } from '../../features/profile/machines/profile/profile.protocol';
import type { RealtimeRef } from './realtime/realtime.protocol';
import type { RecorderRef } from '../../features/composer/machines/recorder/recorder.protocol';
import type { SearchRef } from '../../features/search/machines/search/search.protocol';
import type { SessionRef } from './session/session.protocol';
import type { TypingRef } from '../../features/conversation/machines/typing/typing.protocol';

export interface SystemActors {
  session: SessionRef;
  realtime: RealtimeRef;
  connectivity: ConnectivityRef;
  call: CallRef;
  callsPage: CallsPageRef;
  contacts: ContactsRef;
  contactCode: ContactCodeRef;
  profile: ProfileRef;
  avatar: AvatarRef;
  groupDialog: GroupDialogRef;
  chatsFooter: ChatsFooterRef;
  chats: ChatsRef;
  /** Message search of the chats list (all conversations). */
  search: SearchRef;
  /** Message search within the open conversation. */
  conversationSearch: SearchRef;
  notifications: NotificationsRef;
  offlineStore: OfflineStoreRef;
  /** The open conversation's typing actor (spawned by the conversation actor while one is open). */
  typing: TypingRef;
  /** The voice recorder (the composer's child). */
  recorder: RecorderRef;
}

export type SystemId = keyof SystemActors;

// biome-ignore lint/suspicious/noExplicitAny: xstate's own AnyActorSystem, which its index does not export
export type AnySystem = ActorSystem<any>;

/** The actor registered under `id`, typed by its protocol; undefined when it is not running (isolated tests). */
export function systemActor<K extends SystemId>(system: AnySystem, id: K): SystemActors[K] | undefined {
  return system.get(id);
}
