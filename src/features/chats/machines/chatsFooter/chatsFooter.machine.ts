// The chats footer (docs/behaviour.md §2): its tiles open the group dialog, the contacts dialog (requests, friends,
// the EBLID search) and the profile dialog (avatar editor); one dialog at a time. Each dialog's actor is invoked in
// the state that shows it (views read it from this actor's children; it has no systemId): opening starts it
// fresh, closing stops it (the EBLID search is cleared, an avatar being chosen or framed is dropped) — except an
// avatar already being cropped, uploaded and saved: its actor runs on with the dialog closed until it is done, and
// reopening the dialog shows it. The folded EBLID panel has its own search, started when first unfolded.
// Opening a chat from the contacts dialog closes it. Copying the own EBLID shows 'Скопировано' for the
// success-message time; a clipboard the browser refuses changes nothing (the code stays visible to copy by hand).
import { and, assertEvent, assign, type EventObject, fromCallback, not, setup, stateIn } from 'xstate';
import { TIMINGS } from '../../../../contract/limits';
import { notWired } from '../../../../core/machines/not-wired';
import { systemActor } from '../../../../core/machines/system';
import { contactCodeMachine, groupDialogMachine } from '../../../contacts/index';
import { avatarMachine } from '../../../profile/index';
import { type ChatsFooterContext, type ChatsFooterEvent, FOOTER_TAGS } from './chatsFooter.protocol';

export * from './chatsFooter.protocol';

/** The contacts actor's `contacts.chatOpened` as this machine's event. */
export const chatOpenedFromContacts = fromCallback<EventObject, void, ChatsFooterEvent>(({ system, sendBack }) => {
  const sub = systemActor(system, 'contacts')?.on('contacts.chatOpened', () => sendBack({ type: 'footer.chatOpened' }));
  return () => sub?.unsubscribe();
});

export const chatsFooterMachine = setup({
  types: { context: {} as ChatsFooterContext, events: {} as ChatsFooterEvent },
  actors: {
    chatOpened: chatOpenedFromContacts,
    /** Writes the text to the clipboard. */
    copyText: notWired<void, { text: string }>('chatsFooter.copyText'),
    contactCode: contactCodeMachine,
    avatar: avatarMachine,
    groupDialog: groupDialogMachine,
  },
  guards: {
    avatarIdle: ({ context }) => !context.avatarBusy,
  },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'chatsFooter',
  context: { avatarBusy: false },
  type: 'parallel',
  states: {
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'footer.openContacts': 'contacts', 'footer.openProfile': 'profile', 'footer.openGroup': 'group' },
        },
        group: {
          tags: [FOOTER_TAGS.group],
          // The dialog finishes when closed or once the group exists.
          invoke: { id: 'groupDialog', src: 'groupDialog', onDone: 'closed' },
        },
        contacts: {
          tags: [FOOTER_TAGS.contacts],
          invoke: [
            { id: 'chatOpened', src: 'chatOpened' },
            { id: 'contactCode', src: 'contactCode' },
          ],
          on: {
            'footer.close': 'closed',
            'footer.chatOpened': 'closed',
            'footer.openProfile': 'profile',
          },
        },
        profile: {
          tags: [FOOTER_TAGS.profile],
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
          invoke: {
            id: 'avatar',
            src: 'avatar',
            // One's own picture (no group).
            input: {},
            onSnapshot: { actions: assign({ avatarBusy: ({ event }) => event.snapshot.hasTag('busy') }) },
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
        shown: { invoke: { id: 'foldCode', src: 'contactCode' } },
      },
    },
    copy: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'footer.copy': 'copying' },
        },
        copying: {
          invoke: {
            id: 'copyText',
            src: 'copyText',
            input: ({ event }) => {
              assertEvent(event, 'footer.copy');
              return { text: event.text };
            },
            onDone: 'copied',
            onError: 'idle',
          },
        },
        copied: {
          tags: [FOOTER_TAGS.copied],
          after: { copiedNotice: 'idle' },
          on: { 'footer.copy': 'copying' },
        },
      },
    },
  },
});

export type ChatsFooterActorRef = import('xstate').ActorRefFrom<typeof chatsFooterMachine>;
