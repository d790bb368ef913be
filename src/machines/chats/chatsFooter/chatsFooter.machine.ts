// The chats footer (docs/behaviour.md §2): its tiles open the group dialog, the contacts dialog (requests, friends,
// the EBLID search) and the profile dialog (avatar editor); one dialog at a time. Each dialog's actor runs in
// the state that shows it (views read it from this actor's children; it has no systemId): opening starts it
// fresh, closing stops it (the EBLID search is cleared, an avatar being chosen or framed is dropped) — except an
// avatar already being cropped, uploaded and saved: its actor runs on with the dialog closed until it is done, and
// reopening the dialog shows it. The folded EBLID panel has its own search, started when first unfolded.
// Opening a chat from the contacts dialog closes it. Copying the own EBLID shows 'Скопировано' for the
// success-message time; a clipboard the browser refuses changes nothing (the code stays visible to copy by hand).
// The dialogs' machines are not in the first bundle: fetched when a dialog is first opened or the panel unfolded,
// then kept; a dialog shows once its actor runs ('waiting' before), and one whose code could not be fetched closes
// again (its tile tries again).
import { and, assign, type EventObject, enqueueActions, fromCallback, not, setup, stateIn, stopChild } from 'xstate';
import { TIMINGS } from '../../../contract/limits';
import { copyStates, copyTextNotWired } from '../../shared/clipboard';
import { loadOwnedNotWired, type OwnedCode, ownedCodeRegion, spawnOwned } from '../../shared/owned-code';
import { present } from '../../shared/present';
import { systemActor } from '../../shared/system';
import {
  type ChatsFooterChildren,
  type ChatsFooterContext,
  type ChatsFooterDialog,
  type ChatsFooterEffects,
  type ChatsFooterEvent,
  FOOTER_TAGS,
} from './chatsFooter.protocol';

export * from './chatsFooter.protocol';

/** The contacts actor's `contacts.chatOpened` as this machine's event. */
export const chatOpenedFromContacts = fromCallback<EventObject, void, ChatsFooterEvent>(({ system, sendBack }) => {
  const sub = systemActor(system, 'contacts')?.on('contacts.chatOpened', () => sendBack({ type: 'footer.chatOpened' }));
  return () => sub?.unsubscribe();
});

type Dialogs = ChatsFooterDialog;
type DialogsCode = OwnedCode<Dialogs>;
/** The protocol's context, and the dialogs' machines once fetched. */
type Context = ChatsFooterContext & { code: DialogsCode | null };
/** What the footer hears from its own actors: no code came, the group dialog finished, the avatar editor's state. */
type OwnEvent =
  | { type: 'xstate.error.actor.loadOwned'; error: unknown }
  | { type: 'xstate.done.actor.groupDialog' }
  | { type: 'xstate.snapshot.avatar'; snapshot: { hasTag(tag: string): boolean } };

/** A dialog's actor: its child id, the registry line it runs, its input, whether the footer hears its snapshots. */
interface DialogStart {
  id: keyof ChatsFooterChildren;
  line: Dialogs;
  input?: unknown;
  sync?: boolean;
}

/**
 * The states of a dialog (or panel) whose code may not be here yet: 'waiting' for it, then 'running' with its actor
 * started on entry and stopped on exit (tagged for the view); a fetch that fails goes to `failed`.
 */
function lazy<const Tag extends string = never>(failed: string, start: DialogStart | null, tag?: Tag) {
  return {
    initial: 'waiting',
    states: {
      waiting: {
        always: { guard: 'codeHere', target: 'running' },
        on: { 'xstate.error.actor.loadOwned': failed },
      },
      running: {
        tags: tag ? [tag] : [],
        ...(start
          ? ({
              entry: { type: 'startDialog', params: start },
              exit: { type: 'stopDialog', params: { id: start.id } },
            } as const)
          : {}),
      },
    },
  } as const;
}

export const chatsFooterMachine = setup({
  types: { context: {} as Context, events: {} as ChatsFooterEvent | OwnEvent },
  actors: {
    chatOpened: chatOpenedFromContacts,
    copyText: copyTextNotWired('chatsFooter') as ChatsFooterEffects['copyText'],
    loadOwned: loadOwnedNotWired('chatsFooter') as ChatsFooterEffects['loadOwned'],
  },
  guards: {
    avatarIdle: ({ context }) => !context.avatarBusy,
    codeHere: ({ context }) => context.code !== null,
  },
  actions: {
    keepCode: assign({ code: (_, code: DialogsCode) => code }),
    /** A dialog's actor (`id`) from the fetched machine of `line`; `sync`: the footer hears its snapshots. */
    startDialog: enqueueActions(
      ({ context, enqueue }, p: { id: string; line: keyof DialogsCode; input?: unknown; sync?: boolean }) => {
        enqueue(spawnOwned(present(context.code, 'code')[p.line], p.id, p.input, p.sync));
      },
    ),
    stopDialog: stopChild((_, p: { id: string }) => p.id),
  },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'chatsFooter',
  context: { avatarBusy: false, code: null },
  type: 'parallel',
  states: {
    // The dialogs' machines: fetched once, when a dialog is first opened or the panel unfolded.
    code: ownedCodeRegion<DialogsCode>([
      'footer.openContacts',
      'footer.openProfile',
      'footer.openGroup',
      'footer.unfold',
    ]),
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'footer.openContacts': 'contacts', 'footer.openProfile': 'profile', 'footer.openGroup': 'group' },
        },
        group: {
          ...lazy('#chatsFooter.dialog.closed', { id: 'groupDialog', line: 'groupDialog' }, FOOTER_TAGS.group),
          // The dialog finishes when closed or once the group exists.
          on: { 'xstate.done.actor.groupDialog': 'closed' },
        },
        contacts: {
          invoke: { id: 'chatOpened', src: 'chatOpened' },
          ...lazy('#chatsFooter.dialog.closed', { id: 'contactCode', line: 'contactCode' }, FOOTER_TAGS.contacts),
          on: {
            'footer.close': 'closed',
            'footer.chatOpened': 'closed',
            'footer.openProfile': 'profile',
          },
        },
        // Its avatar editor runs in the region 'avatar', which may outlive it.
        profile: {
          ...lazy('#chatsFooter.dialog.closed', null, FOOTER_TAGS.profile),
          on: {
            'footer.close': 'closed',
            'footer.openContacts': 'contacts',
          },
        },
      },
    },
    // The profile dialog's avatar editor: started with the dialog, stopped with it unless an avatar is being sent,
    // which then finishes with the dialog closed.
    avatar: {
      initial: 'off',
      states: {
        off: {
          entry: assign({ avatarBusy: false }),
          on: { 'footer.openProfile': 'on' },
        },
        on: {
          // One's own picture (no group); the footer follows whether it is sending.
          ...lazy('#chatsFooter.avatar.off', { id: 'avatar', line: 'avatar', input: {}, sync: true }),
          on: {
            'xstate.snapshot.avatar': { actions: assign({ avatarBusy: ({ event }) => event.snapshot.hasTag('busy') }) },
          },
          // Stopped once the dialog is gone and nothing is being sent.
          always: { guard: and([not(stateIn('#chatsFooter.dialog.profile')), 'avatarIdle']), target: 'off' },
        },
      },
    },
    // The footer's folded EBLID panel: its search starts when first unfolded and stays while the footer is shown.
    fold: {
      initial: 'folded',
      states: {
        folded: { on: { 'footer.unfold': 'shown' } },
        // Its own search: the same machine as the contacts dialog's (unfolding it again after a failed fetch tries
        // again).
        shown: lazy('#chatsFooter.fold.folded', { id: 'foldCode', line: 'contactCode' }),
      },
    },
    // The own EBLID to the clipboard: a click while it is being written changes nothing (the text is the same).
    copy: copyStates({ event: 'footer.copy', tag: FOOTER_TAGS.copied, delay: 'copiedNotice', again: 'ignore' }),
  },
});

export type ChatsFooterActorRef = import('xstate').ActorRefFrom<typeof chatsFooterMachine>;
