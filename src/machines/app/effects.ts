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

/** The wire functions a wiring module exports (what `later` may pick from it). */
type WireName<M> = { [K in keyof M]: M[K] extends (s: Services) => AnyStateMachine ? K : never }[keyof M];

/**
 * A line whose wiring loads later: `pick` names its wire function in the module `load` fetches. Each module's
 * import() is written once below, so the first bundle carries one loader per chunk, not one per line.
 */
const later = <M>(load: () => Promise<M>, pick: WireName<M>): Effects => ({
  wired: (s) => load().then((m) => (m[pick] as (s: Services) => AnyStateMachine)(s)),
});

const callsPage = () => import('./wiring/calls-page');
const messageActionsDialog = () => import('./wiring/messageActions-dialog');
const scheduled = () => import('./wiring/scheduled');
const account = () => import('./wiring/account');
const chatsMenu = () => import('./wiring/chats-menu');
const groupInvites = () => import('./wiring/groupInvites');
const guests = () => import('./wiring/guests');
const blocking = () => import('./wiring/blocking');
const conversationInfo = () => import('./wiring/conversationInfo');
const directory = () => import('./wiring/directory');
const polls = () => import('./wiring/polls');
const historyImport = () => import('./wiring/historyImport');
const threads = () => import('./wiring/threads');
const auth = () => import('./wiring/auth');
const oidc = () => import('./wiring/oidc');
const reports = () => import('./wiring/reports');
const admin = () => import('./wiring/admin');
const inviteCodes = () => import('./wiring/inviteCodes');
const secretChatsRegister = () => import('./wiring/secretChats-register');
const secretChats = () => import('./wiring/secretChats');
const secretChatsRecovery = () => import('./wiring/secretChats-recovery');
const secretChatsApproval = () => import('./wiring/secretChats-approval');
const contactsDialog = () => import('./wiring/contacts-dialog');
const profileAvatar = () => import('./wiring/profile-avatar');
const conversation = () => import('./wiring/conversation');
const memberCard = () => import('./wiring/memberCard');
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
  callsPage: later(callsPage, 'wireCallsPage'),
  chatsFooter: { wire: wireChatsFooter },
  conversationSearch: { wire: wireSearch },
  selection: later(messageActionsDialog, 'wireSelection'),
  forwardPicker: later(messageActionsDialog, 'wireForwardPicker'),
  messageInfo: later(messageActionsDialog, 'wireMessageInfo'),
  scheduler: later(scheduled, 'wireScheduler'),
  devices: later(account, 'wireDevices'),
  passwordChange: later(account, 'wirePassword'),
  accountDeletion: later(account, 'wireAccountDeletion'),
  dataExport: later(account, 'wireDataExport'),
  twoFactor: later(account, 'wireTwoFactor'),
  passkeys: later(account, 'wirePasskeys'),
  chatActions: later(chatsMenu, 'wireChatActions'),
  groupInvites: later(groupInvites, 'wireGroupInvites'),
  joinGroup: later(groupInvites, 'wireJoinGroup'),
  guestPage: later(guests, 'wireGuestPage'),
  guestDoor: later(guests, 'wireGuestDoor'),
  guestLinks: later(guests, 'wireGuestLinks'),
  blocking: later(blocking, 'wireBlocking'),
  conversationInfo: later(conversationInfo, 'wireConversationInfo'),
  directory: later(directory, 'wireDirectory'),
  historySetting: later(conversationInfo, 'wireHistorySetting'),
  pollComposer: later(polls, 'wirePollComposer'),
  pollVotes: later(polls, 'wirePollVotes'),
  historyImport: later(historyImport, 'wireHistoryImport'),
  threadPanel: later(threads, 'wireThreadPanel'),
  followedThreads: later(threads, 'wireFollowedThreads'),
  registrationMode: later(auth, 'wireRegistrationMode'),
  passwordReset: later(auth, 'wirePasswordReset'),
  passkeySignIn: later(auth, 'wirePasskeySignIn'),
  oidcSignIn: later(oidc, 'wireOidcSignIn'),
  signInMethods: later(oidc, 'wireSignInMethods'),
  reportDialog: later(reports, 'wireReportDialog'),
  reportNotices: later(reports, 'wireReportNotices'),
  adminUsers: later(admin, 'wireAdminUsers'),
  adminRegistration: later(admin, 'wireAdminRegistration'),
  inviteCodes: later(inviteCodes, 'wireInviteCodes'),
  adminReports: later(admin, 'wireAdminReports'),
  adminStats: later(admin, 'wireAdminStats'),
  secretRegistration: later(secretChatsRegister, 'wireSecretRegistration'),
  secretDevice: later(secretChats, 'wireSecretDevice'),
  secretDialog: later(secretDialogs, 'wireSecretDialog'),
  secretCall: later(secretDialogs, 'wireSecretCall'),
  secretRecovery: later(secretChatsRecovery, 'wireSecretRecovery'),
  secretVerify: later(secretDialogs, 'wireSecretVerify'),
  secretApproval: later(secretChatsApproval, 'wireSecretApproval'),
  contactCode: later(contactsDialog, 'wireContactCode'),
  avatar: later(profileAvatar, 'wireAvatar'),
  groupDialog: later(contactsDialog, 'wireGroupDialog'),
  groupAvatar: later(profileAvatar, 'wireGroupAvatar'),
  conversation: later(conversation, 'wireConversation'),
  memberCard: later(memberCard, 'wireMemberCard'),
  memberWrite: later(memberCard, 'wireMemberCard'),
} as const satisfies Record<string, Effects>;
