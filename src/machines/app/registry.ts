// The registry: every actor of the app, one line each, and the one place a new machine is registered.
//
//   id: { machine, lifetime, owner?, systemId?, wire?, input? }
//
// - lifetime 'session': spawned by the root for the whole session (src/machines/app/app.machine.ts builds its spawn
//   list from these lines);
// - lifetime 'owned': lives exactly while its owner shows it: owner 'view' = a view holds it with
//   useOwnedActor(id) (src/ui/app/useOwnedActor.ts) and the root spawns it while that view is mounted; owner
//   '<id>' = that machine runs it in the state that shows it (the chats footer's dialogs, the open conversation);
// - lifetime 'child': spawned by its parent machine, which provides it in its own wiring; listed for the diagrams.
// - systemId: registered under its id, reachable with systemActor(system, id). Its protocol declares the type
//   (module augmentation of SystemActors in src/machines/shared/system.ts); the checks at the end of this file fail
//   to compile when the two disagree either way.
// - wire: the machine with its effects provided from the services (each feature's wiring.ts); src/machines/app/wiring.ts
//   composes them.
// - load: the line's code is not in the first bundle. A view-owned line is fetched when its view first opens it; a
//   line owned by a machine reaches its owner through the owner's actor `loadOwned` (src/machines/shared/owned-code.ts),
//   which the owner runs when the line is about to be needed; a child line names only its machine, for the diagrams.
// The diagram list (scripts/diagrams.ts, src/machines/app/diagrams.ts) is derived from it too: a line that loads later is
// drawn from its wired machine, so the browser's copy of this file carries no loader for the diagrams alone.
import type { ActorRefFrom, AnyStateMachine } from 'xstate';
import { callMachine } from '../calls/index';
import { wireCall } from './wiring/calls';
import {
  chatActionsMachine,
  chatsFooterMachine,
  chatsLayoutMachine,
  chatsMachine,
  conversationLoaderMachine,
  navigationMachine,
} from '../chats/index';
import { wireChatActions, wireChats, wireChatsFooter, wireNavigation } from './wiring/chats';
import { wireComposer } from './wiring/composer';
import { composerMachine, draftsMachine, outboxMachine, recorderMachine } from '../composer/index';
import { contactsMachine } from '../contacts/index';
import { wireContacts } from './wiring/contacts';
import { lightboxMachine } from '../conversation/index';
import { removalMachine } from '../messageActions/index';
import { wireRemoval } from './wiring/messageActions';
import { notificationsMachine } from '../notifications/index';
import { wireNotifications } from './wiring/notifications';
import { profileMachine } from '../profile/index';
import { wireProfile } from './wiring/profile';
import { searchMachine } from '../search/index';
import { wireSearch } from './wiring/search';
import { themeMachine } from '../theme/index';
import { wireTheme } from './wiring/theme';
import type { AppInput } from './app.protocol';
import { connectivityMachine } from '../realtime/connectivity/connectivity.machine';
import { offlineStoreMachine } from '../session/offlineStore/offlineStore.machine';
import { realtimeMachine } from '../realtime/realtime/realtime.machine';
import { sessionMachine } from '../session/session/session.machine';
import { signOutQueueMachine } from '../session/signOutQueue/signOutQueue.machine';
import type { SystemActors } from '../shared/system';
import { wireConnectivity, wireOfflineStore, wireRealtime, wireSession, wireSignOutQueue } from './core-wiring';
import type { Services } from './services';

export type Lifetime = 'session' | 'owned' | 'child';

export interface RegistryEntry {
  /** The machine, in the first bundle (absent for a line whose code loads later: `load`). */
  machine?: AnyStateMachine;
  /**
   * A line whose code loads later, not with the first bundle. `wired`: its machine with its effects (a view-owned
   * line's is fetched when the view first opens it and the root spawns it then; a machine-owned line's when its
   * owner asks); the diagrams read its states from it too. `machine`: a child line's machine, for the diagrams only
   * (its parent's wiring provides it).
   */
  load?: { wired?(s: Services): Promise<AnyStateMachine>; machine?(): Promise<AnyStateMachine> };
  lifetime: Lifetime;
  /** Who spawns an 'owned' or 'child' actor: 'view' (useOwnedActor) or its parent machine's id. */
  owner?: string;
  /** Registered in the actor system under its id. */
  systemId?: true;
  /** The machine with its effects provided (children are provided by their parent's wiring). */
  wire?: (s: Services) => AnyStateMachine;
  /** A session-long actor's input, from the root's. */
  input?: (app: AppInput | undefined) => unknown;
}

export const registry = {
  // Session-long: the root spawns them at start. The session comes first: the others read who is signed in (and
  // the realtime actor the token) from it when they start.
  session: {
    machine: sessionMachine,
    lifetime: 'session',
    systemId: true,
    wire: wireSession,
    input: (app) => ({ stored: app?.stored ?? null }),
  },
  realtime: { machine: realtimeMachine, lifetime: 'session', systemId: true, wire: wireRealtime },
  connectivity: { machine: connectivityMachine, lifetime: 'session', systemId: true, wire: wireConnectivity },
  signOutQueue: { machine: signOutQueueMachine, lifetime: 'session', systemId: true, wire: wireSignOutQueue },
  offlineStore: { machine: offlineStoreMachine, lifetime: 'session', systemId: true, wire: wireOfflineStore },
  notifications: { machine: notificationsMachine, lifetime: 'session', systemId: true, wire: wireNotifications },
  chats: { machine: chatsMachine, lifetime: 'session', systemId: true, wire: wireChats },
  // The draft and one outbox per user (after the chats actor, whose selections it follows).
  composer: { machine: composerMachine, lifetime: 'session', systemId: true, wire: wireComposer },
  call: { machine: callMachine, lifetime: 'session', systemId: true, wire: wireCall },
  // The address and the open conversation in step (after the chats actor, whose selections it hears).
  navigation: { machine: navigationMachine, lifetime: 'session', systemId: true, wire: wireNavigation },
  // The footer's badge and requests heard live (any page), the chats list's search (its query survives a visit
  // to another page, like the list), and the own record (the server's profile:update from another tab reaches the
  // session's user shown everywhere; the settings page and the footer read it).
  contacts: { machine: contactsMachine, lifetime: 'session', systemId: true, wire: wireContacts },
  search: { machine: searchMachine, lifetime: 'session', systemId: true, wire: wireSearch },
  profile: { machine: profileMachine, lifetime: 'session', systemId: true, wire: wireProfile },
  // Deleting and hiding messages with «Отменить»: for the session, so a removal goes out after its chat is closed.
  removal: { machine: removalMachine, lifetime: 'session', systemId: true, wire: wireRemoval },
  // The colour theme, signed in or not (the auth pages are themed too).
  theme: { machine: themeMachine, lifetime: 'session', systemId: true, wire: wireTheme },
  // Owned by a view: alive while it is mounted.
  callsPage: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/calls-page').then((m) => m.wireCallsPage(s)),
    },
  },
  chatsFooter: { machine: chatsFooterMachine, lifetime: 'owned', owner: 'view', systemId: true, wire: wireChatsFooter },
  conversationSearch: { machine: searchMachine, lifetime: 'owned', owner: 'view', systemId: true, wire: wireSearch },
  // The open conversation's composer and message actions: their code comes with the pane, not the first bundle.
  sendPreview: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: () => import('../composer/sendPreview/sendPreview.machine').then((m) => m.sendPreviewMachine),
    },
  },
  mentionPicker: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: () => import('../composer/mentionPicker/mentionPicker.machine').then((m) => m.mentionPickerMachine),
    },
  },
  selection: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireSelection(s)),
    },
  },
  forwardPicker: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireForwardPicker(s)),
    },
  },
  messageInfo: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/messageActions-dialog').then((m) => m.wireMessageInfo(s)),
    },
  },
  chatsLayout: { machine: chatsLayoutMachine, lifetime: 'owned', owner: 'view', systemId: true },
  lightbox: { machine: lightboxMachine, lifetime: 'owned', owner: 'view', systemId: true },
  devices: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/account').then((m) => m.wireDevices(s)),
    },
  },
  passwordChange: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/account').then((m) => m.wirePassword(s)),
    },
  },
  accountDeletion: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/account').then((m) => m.wireAccountDeletion(s)),
    },
  },
  dataExport: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/account').then((m) => m.wireDataExport(s)),
    },
  },
  chatActions: { machine: chatActionsMachine, lifetime: 'owned', owner: 'view', systemId: true, wire: wireChatActions },
  groupInvites: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/groupInvites').then((m) => m.wireGroupInvites(s)),
    },
  },
  joinGroup: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/groupInvites').then((m) => m.wireJoinGroup(s)),
    },
  },
  blocking: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/blocking').then((m) => m.wireBlocking(s)),
    },
  },
  conversationInfo: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/conversationInfo').then((m) => m.wireConversationInfo(s)),
    },
  },
  // The registration screen asks who may register (its code loads with the auth pages).
  registrationMode: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/auth').then((m) => m.wireRegistrationMode(s)),
    },
  },
  // The page a password-reset link opens (/reset/<token>, signed in or not; its code loads with the page).
  passwordReset: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/auth').then((m) => m.wirePasswordReset(s)),
    },
  },
  // «Пожаловаться» (while its dialog is open) and the outcomes of one's reports (while signed in).
  reportDialog: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/reports').then((m) => m.wireReportDialog(s)),
    },
  },
  reportNotices: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/reports').then((m) => m.wireReportNotices(s)),
    },
  },
  // «Администрирование»: each tab's actor, with the page's code (docs/administration.md).
  adminUsers: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminUsers(s)),
    },
  },
  adminRegistration: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminRegistration(s)),
    },
  },
  // Invite codes: «Коды приглашения» in «Регистрация» and «Приглашения» in Settings (docs/administration.md).
  inviteCodes: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/inviteCodes').then((m) => m.wireInviteCodes(s)),
    },
  },
  adminReports: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminReports(s)),
    },
  },
  adminStats: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/admin').then((m) => m.wireAdminStats(s)),
    },
  },
  // Secret chats (docs/secret-chats.md): this browser as a device, while the chats page shows a secret chat or the
  // creation dialog is open, and the dialog «Новый секретный чат». Their code, and the crypto worker's, load then.
  secretDevice: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/secretChats').then((m) => m.wireSecretDevice(s)),
    },
  },
  secretDialog: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/secretChats').then((m) => m.wireSecretDialog(s)),
    },
  },
  // A secret chat's call key, owned by the call view while such a call is open (docs/secret-chats.md "Calls").
  secretCall: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: () => import('./wiring/secretChats').then((m) => m.wireSecretCall()),
    },
  },
  // «Ключ восстановления»: alive while its dialog is open (settings, or an unreadable secret message).
  secretRecovery: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/secretChats-recovery').then((m) => m.wireSecretRecovery(s)),
    },
  },
  // «Проверить шифрование»: alive while its dialog is open.
  secretVerify: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/secretChats').then((m) => m.wireSecretVerify(s)),
    },
  },
  // Owned by the chats footer: alive while its dialog is open (views read them from the footer's children); their
  // code is fetched when a dialog is first opened or the EBLID panel unfolded.
  contactCode: {
    lifetime: 'owned',
    owner: 'chatsFooter',
    load: {
      wired: (s: Services) => import('./wiring/contacts-dialog').then((m) => m.wireContactCode(s)),
    },
  },
  avatar: {
    lifetime: 'owned',
    owner: 'chatsFooter',
    load: {
      wired: (s: Services) => import('./wiring/profile-avatar').then((m) => m.wireAvatar(s)),
    },
  },
  groupDialog: {
    lifetime: 'owned',
    owner: 'chatsFooter',
    load: {
      wired: (s: Services) => import('./wiring/contacts-dialog').then((m) => m.wireGroupDialog(s)),
    },
  },
  // The same editor for a group's picture, owned by «Информация» (after `avatar`, so the diagram keeps that name).
  groupAvatar: {
    lifetime: 'owned',
    owner: 'view',
    systemId: true,
    load: {
      wired: (s: Services) => import('./wiring/profile-avatar').then((m) => m.wireGroupAvatar(s)),
    },
  },
  // Owned by the chats actor for the page: the selected conversation's code and actor.
  conversationLoader: { machine: conversationLoaderMachine, lifetime: 'owned', owner: 'chats' },
  // Owned by the loader: the selected conversation, its code fetched when a conversation is first opened or
  // about to be (with its children below).
  conversation: {
    lifetime: 'owned',
    owner: 'conversationLoader',
    load: {
      wired: (s: Services) => import('./wiring/conversation').then((m) => m.wireConversation(s)),
    },
  },
  // Children spawned and wired by their parent.
  readReceipts: {
    lifetime: 'child',
    owner: 'conversation',
    load: {
      machine: () => import('../conversation/readReceipts/readReceipts.machine').then((m) => m.readReceiptsMachine),
    },
  },
  messageEdit: {
    lifetime: 'child',
    owner: 'conversation',
    load: {
      machine: () => import('../conversation/messageEdit/messageEdit.machine').then((m) => m.messageEditMachine),
    },
  },
  typing: {
    lifetime: 'child',
    owner: 'conversation',
    systemId: true,
    load: {
      machine: () => import('../conversation/typing/typing.machine').then((m) => m.typingMachine),
    },
  },
  recorder: { machine: recorderMachine, lifetime: 'child', owner: 'composer', systemId: true },
  outbox: { machine: outboxMachine, lifetime: 'child', owner: 'composer' },
  drafts: { machine: draftsMachine, lifetime: 'child', owner: 'composer' },
  pins: {
    lifetime: 'child',
    owner: 'conversation',
    load: { machine: () => import('../conversation/pins/pins.machine').then((m) => m.pinsMachine) },
  },
  pageBack: {
    lifetime: 'child',
    owner: 'conversation',
    load: { machine: () => import('../conversation/pageBack/pageBack.machine').then((m) => m.pageBackMachine) },
  },
  // One queue logic, spawned by the conversation (deletions, reactions) and its pin bar (pinning).
  requestQueue: {
    lifetime: 'child',
    owner: 'conversation',
    load: {
      machine: () => import('../realtime/requestQueue/requestQueue.machine').then((m) => m.requestQueueMachine),
    },
  },
  // A secret conversation's MLS lifecycle on this device (docs/secret-chats.md), one per secret chat, spawned and
  // wired by the device actor: loaded with secret chats only.
  secretChat: {
    lifetime: 'child',
    owner: 'secretDevice',
    load: {
      machine: () => import('../secretChats/secretChat/secretChat.machine').then((m) => m.secretChatMachine),
    },
  },
} as const satisfies Record<string, RegistryEntry>;

export type Registry = typeof registry;
export type RegistryId = keyof Registry;
/** The session-long actors: the root's context holds one ref per id. */
export type SessionId = { [K in RegistryId]: Registry[K] extends { lifetime: 'session' } ? K : never }[RegistryId];

// --- compile-time checks: the registry and the typed system map (src/machines/shared/system.ts) agree ---
type WithSystemId = { [K in RegistryId]: Registry[K] extends { systemId: true } ? K : never }[RegistryId];
type Verdict<T extends Record<string, true>> = T;
/** A line's machine type: its `machine`, or what its `load` gives. */
export type MachineOf<E> = E extends { machine: infer M extends AnyStateMachine }
  ? M
  : E extends { load: { wired(s: Services): Promise<infer M extends AnyStateMachine> } }
    ? M
    : E extends { load: { machine(): Promise<infer M extends AnyStateMachine> } }
      ? M
      : never;
/** Every registry line with a systemId has its entry in SystemActors, and the machine's ref fits that entry. */
export type RegistryMatchesSystem = Verdict<{
  [K in WithSystemId]: K extends keyof SystemActors
    ? ActorRefFrom<MachineOf<Registry[K]>> extends SystemActors[K]
      ? true
      : false
    : false;
}>;
/** Every SystemActors entry is a registry line with a systemId. */
export type SystemMatchesRegistry = Verdict<{ [K in keyof SystemActors]: K extends WithSystemId ? true : false }>;

const ids = Object.keys(registry) as RegistryId[];

/** The ids of one lifetime (and owner), in the registry's order. */
export function idsOf(lifetime: Lifetime, owner?: string): RegistryId[] {
  return ids.filter((id) => {
    const e: RegistryEntry = registry[id];
    return e.lifetime === lifetime && (owner === undefined || e.owner === owner);
  });
}

/** The lines whose code loads later. */
export const lazyIds = (): RegistryId[] => ids.filter((id) => (registry[id] as RegistryEntry).load !== undefined);
