// Where each actor's effects come from: one entry per registry id whose machine needs services, giving the machine
// with its effects provided (`wire`), or, for a line whose code loads later, a loader of that (`wired`). The lines
// themselves are the features' (src/machines/<feature>/actors.ts); registry.ts joins the two. A line with neither
// runs its bare machine (a child is provided by its parent's wiring).
import type { AnyStateMachine } from 'xstate';
import { wireConnectivity, wireOfflineStore, wireRealtime, wireSession, wireSignOutQueue } from './core-wiring';
import type { Services } from './services';
import { wireCall } from './wiring/calls';
import { wireChats, wireChatsFooter, wireNavigation } from './wiring/chats';
import { wireComposer } from './wiring/composer';
import { wireContacts } from './wiring/contacts';
import { wireRemoval } from './wiring/messageActions';
import { wireNotifications } from './wiring/notifications';
import { wireProfile } from './wiring/profile';
import { wireSearch } from './wiring/search';
import { wireTheme } from './wiring/theme';

export interface Effects {
  /** The machine with its effects provided, from the services. */
  wire?: (s: Services) => AnyStateMachine;
  /** The same for a line whose code loads later: fetched with its wiring when first needed. */
  wired?: (s: Services) => Promise<AnyStateMachine>;
}

/** The secret chats' dialogs and calls, one chunk apart from the device's (wiring/secretChats-dialogs.ts). */
const secretDialogs = () => import('./wiring/secretChats-dialogs');

export const effects = {
  session: { wire: wireSession },
  realtime: { wire: wireRealtime },
  connectivity: { wire: wireConnectivity },
  signOutQueue: { wire: wireSignOutQueue },
  offlineStore: { wire: wireOfflineStore },
  notifications: { wire: wireNotifications },
  chats: { wire: wireChats },
  composer: { wire: wireComposer },
  call: { wire: wireCall },
  navigation: { wire: wireNavigation },
  contacts: { wire: wireContacts },
  search: { wire: wireSearch },
  profile: { wire: wireProfile },
  removal: { wire: wireRemoval },
  theme: { wire: wireTheme },
  callsPage: { wired: (s: Services) => import('./wiring/calls-page').then((m) => m.wireCallsPage(s)) },
  chatsFooter: { wire: wireChatsFooter },
  conversationSearch: { wire: wireSearch },
  selection: { wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireSelection(s)) },
  forwardPicker: {
    wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireForwardPicker(s)),
  },
  messageInfo: { wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireMessageInfo(s)) },
  scheduler: { wired: (s: Services) => import('./wiring/scheduled').then((m) => m.wireScheduler(s)) },
  devices: { wired: (s: Services) => import('./wiring/account').then((m) => m.wireDevices(s)) },
  passwordChange: { wired: (s: Services) => import('./wiring/account').then((m) => m.wirePassword(s)) },
  accountDeletion: { wired: (s: Services) => import('./wiring/account').then((m) => m.wireAccountDeletion(s)) },
  dataExport: { wired: (s: Services) => import('./wiring/account').then((m) => m.wireDataExport(s)) },
  twoFactor: { wired: (s: Services) => import('./wiring/account').then((m) => m.wireTwoFactor(s)) },
  passkeys: { wired: (s: Services) => import('./wiring/account').then((m) => m.wirePasskeys(s)) },
  chatActions: { wired: (s: Services) => import('./wiring/chats-menu').then((m) => m.wireChatActions(s)) },
  groupInvites: { wired: (s: Services) => import('./wiring/groupInvites').then((m) => m.wireGroupInvites(s)) },
  joinGroup: { wired: (s: Services) => import('./wiring/groupInvites').then((m) => m.wireJoinGroup(s)) },
  guestPage: { wired: (s: Services) => import('./wiring/guests').then((m) => m.wireGuestPage(s)) },
  guestDoor: { wired: (s: Services) => import('./wiring/guests').then((m) => m.wireGuestDoor(s)) },
  guestLinks: { wired: (s: Services) => import('./wiring/guests').then((m) => m.wireGuestLinks(s)) },
  blocking: { wired: (s: Services) => import('./wiring/blocking').then((m) => m.wireBlocking(s)) },
  conversationInfo: {
    wired: (s: Services) => import('./wiring/conversationInfo').then((m) => m.wireConversationInfo(s)),
  },
  directory: { wired: (s: Services) => import('./wiring/directory').then((m) => m.wireDirectory(s)) },
  historySetting: {
    wired: (s: Services) => import('./wiring/conversationInfo').then((m) => m.wireHistorySetting(s)),
  },
  pollComposer: { wired: (s: Services) => import('./wiring/polls').then((m) => m.wirePollComposer(s)) },
  pollVotes: { wired: (s: Services) => import('./wiring/polls').then((m) => m.wirePollVotes(s)) },
  historyImport: { wired: (s: Services) => import('./wiring/historyImport').then((m) => m.wireHistoryImport(s)) },
  threadPanel: { wired: (s: Services) => import('./wiring/threads').then((m) => m.wireThreadPanel(s)) },
  followedThreads: { wired: (s: Services) => import('./wiring/threads').then((m) => m.wireFollowedThreads(s)) },
  registrationMode: { wired: (s: Services) => import('./wiring/auth').then((m) => m.wireRegistrationMode(s)) },
  passwordReset: { wired: (s: Services) => import('./wiring/auth').then((m) => m.wirePasswordReset(s)) },
  passkeySignIn: { wired: (s: Services) => import('./wiring/auth').then((m) => m.wirePasskeySignIn(s)) },
  oidcSignIn: { wired: (s: Services) => import('./wiring/oidc').then((m) => m.wireOidcSignIn(s)) },
  signInMethods: { wired: (s: Services) => import('./wiring/oidc').then((m) => m.wireSignInMethods(s)) },
  reportDialog: { wired: (s: Services) => import('./wiring/reports').then((m) => m.wireReportDialog(s)) },
  reportNotices: { wired: (s: Services) => import('./wiring/reports').then((m) => m.wireReportNotices(s)) },
  adminUsers: { wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminUsers(s)) },
  adminRegistration: { wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminRegistration(s)) },
  inviteCodes: { wired: (s: Services) => import('./wiring/inviteCodes').then((m) => m.wireInviteCodes(s)) },
  adminReports: { wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminReports(s)) },
  adminStats: { wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminStats(s)) },
  secretRegistration: {
    wired: (s: Services) => import('./wiring/secretChats-register').then((m) => m.wireSecretRegistration(s)),
  },
  secretDevice: { wired: (s: Services) => import('./wiring/secretChats').then((m) => m.wireSecretDevice(s)) },
  secretDialog: { wired: (s: Services) => secretDialogs().then((m) => m.wireSecretDialog(s)) },
  secretCall: { wired: () => secretDialogs().then((m) => m.wireSecretCall()) },
  secretRecovery: {
    wired: (s: Services) => import('./wiring/secretChats-recovery').then((m) => m.wireSecretRecovery(s)),
  },
  secretVerify: { wired: (s: Services) => secretDialogs().then((m) => m.wireSecretVerify(s)) },
  secretApproval: {
    wired: (s: Services) => import('./wiring/secretChats-approval').then((m) => m.wireSecretApproval(s)),
  },
  contactCode: { wired: (s: Services) => import('./wiring/contacts-dialog').then((m) => m.wireContactCode(s)) },
  avatar: { wired: (s: Services) => import('./wiring/profile-avatar').then((m) => m.wireAvatar(s)) },
  groupDialog: { wired: (s: Services) => import('./wiring/contacts-dialog').then((m) => m.wireGroupDialog(s)) },
  groupAvatar: { wired: (s: Services) => import('./wiring/profile-avatar').then((m) => m.wireGroupAvatar(s)) },
  conversation: { wired: (s: Services) => import('./wiring/conversation').then((m) => m.wireConversation(s)) },
  memberCard: { wired: (s: Services) => import('./wiring/memberCard').then((m) => m.wireMemberCard(s)) },
  memberWrite: { wired: (s: Services) => import('./wiring/memberCard').then((m) => m.wireMemberCard(s)) },
} as const satisfies Record<string, Effects>;
