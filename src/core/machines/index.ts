// Every machine of the client, for the diagram script and its test. Add new machines here.
import { appMachine } from './app/app.machine';
import { callMachine } from '../../features/calls/index';
import { callsPageMachine } from '../../features/calls/index';
import { chatsMachine } from '../../features/chats/index';
import { chatsFooterMachine } from '../../features/chats/index';
import { chatsLayoutMachine } from '../../features/chats/index';
import { composerMachine } from '../../features/composer/index';
import { outboxMachine } from '../../features/composer/index';
import { conversationMachine } from '../../features/conversation/index';
import { avatarMachine } from '../../features/profile/index';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { contactCodeMachine } from '../../features/contacts/index';
import { contactsMachine } from '../../features/contacts/index';
import { groupDialogMachine } from '../../features/contacts/index';
import { notificationsMachine } from '../../features/notifications/index';
import { offlineStoreMachine } from './offlineStore/offlineStore.machine';
import { profileMachine } from '../../features/profile/index';
import { lightboxMachine } from '../../features/conversation/index';
import { messageEditMachine } from '../../features/conversation/index';
import { readReceiptsMachine } from '../../features/conversation/index';
import { realtimeMachine } from './realtime/realtime.machine';
import { requestQueueMachine } from './requestQueue/requestQueue.machine';
import { recorderMachine } from '../../features/composer/index';
import { searchMachine } from '../../features/search/index';
import { sessionMachine } from './session/session.machine';
import { typingMachine } from '../../features/conversation/index';

export const machines = {
  app: appMachine,
  session: sessionMachine,
  realtime: realtimeMachine,
  connectivity: connectivityMachine,
  call: callMachine,
  callsPage: callsPageMachine,
  contacts: contactsMachine,
  contactCode: contactCodeMachine,
  profile: profileMachine,
  avatar: avatarMachine,
  groupDialog: groupDialogMachine,
  lightbox: lightboxMachine,
  chatsFooter: chatsFooterMachine,
  chatsLayout: chatsLayoutMachine,
  chats: chatsMachine,
  conversation: conversationMachine,
  composer: composerMachine,
  outbox: outboxMachine,
  recorder: recorderMachine,
  typing: typingMachine,
  readReceipts: readReceiptsMachine,
  messageEdit: messageEditMachine,
  search: searchMachine,
  notifications: notificationsMachine,
  offlineStore: offlineStoreMachine,
  requestQueue: requestQueueMachine,
} as const;
