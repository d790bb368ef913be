// Every machine of the client, for the diagram script and its test. Add new machines here.
import { appMachine } from './app/app.machine';
import { callMachine } from './call/call.machine';
import { callsPageMachine } from './callsPage/callsPage.machine';
import { chatsLayoutMachine } from './chatsLayout/chatsLayout.machine';
import { avatarMachine } from './avatar/avatar.machine';
import { connectivityMachine } from './connectivity/connectivity.machine';
import { contactCodeMachine } from './contactCode/contactCode.machine';
import { contactsMachine } from './contacts/contacts.machine';
import { groupDialogMachine } from './groupDialog/groupDialog.machine';
import { profileMachine } from './profile/profile.machine';
import { lightboxMachine } from './lightbox/lightbox.machine';
import { realtimeMachine } from './realtime/realtime.machine';
import { sessionMachine } from './session/session.machine';

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
  chatsLayout: chatsLayoutMachine,
} as const;
