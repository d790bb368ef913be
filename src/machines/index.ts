// Every machine of the client, for the diagram script and its test. Add new machines here.
import { appMachine } from './app/app.machine';
import { callMachine } from './call/call.machine';
import { callsPageMachine } from './callsPage/callsPage.machine';
import { chatsMachine } from './chats/chats.machine';
import { chatsFooterMachine } from './chatsFooter/chatsFooter.machine';
import { chatsLayoutMachine } from './chatsLayout/chatsLayout.machine';
import { composerMachine } from './composer/composer.machine';
import { conversationMachine } from './conversation/conversation.machine';
import { avatarMachine } from './avatar/avatar.machine';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { contactCodeMachine } from './contactCode/contactCode.machine';
import { contactsMachine } from './contacts/contacts.machine';
import { groupDialogMachine } from './groupDialog/groupDialog.machine';
import { notificationsMachine } from './notifications/notifications.machine';
import { offlineStoreMachine } from './offlineStore/offlineStore.machine';
import { profileMachine } from './profile/profile.machine';
import { lightboxMachine } from './lightbox/lightbox.machine';
import { messageEditMachine } from './messageEdit/messageEdit.machine';
import { readReceiptsMachine } from './readReceipts/readReceipts.machine';
import { realtimeMachine } from './realtime/realtime.machine';
import { recorderMachine } from './recorder/recorder.machine';
import { searchMachine } from './search/search.machine';
import { sessionMachine } from './session/session.machine';
import { typingMachine } from './typing/typing.machine';

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
  recorder: recorderMachine,
  typing: typingMachine,
  readReceipts: readReceiptsMachine,
  messageEdit: messageEditMachine,
  search: searchMachine,
  notifications: notificationsMachine,
  offlineStore: offlineStoreMachine,
} as const;
