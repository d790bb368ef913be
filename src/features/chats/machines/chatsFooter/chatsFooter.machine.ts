// The chats footer (docs/behaviour.md §2): its tiles open the contacts dialog (requests, friends, the EBLID search)
// and the profile dialog (avatar editor); one dialog at a time. Closing the contacts dialog clears the EBLID search;
// closing the profile dialog cancels an avatar being chosen or framed (an upload already running finishes).
// Opening a chat from the contacts dialog closes it. Copying the own EBLID shows 'Скопировано' for the
// success-message time; a clipboard the browser refuses changes nothing (the code stays visible to copy by hand).
import { assertEvent, type EventObject, fromCallback, setup } from 'xstate';
import { TIMINGS } from '../../../../contract/limits';
import { notWired } from '../../../../core/machines/not-wired';
import { systemActor } from '../../../../core/machines/system';
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
  },
  actions: {
    resetCodeSearch: ({ system }) => systemActor(system, 'contactCode')?.send({ type: 'code.reset' }),
    cancelAvatar: ({ system }) => systemActor(system, 'avatar')?.send({ type: 'avatar.cancel' }),
  },
  delays: { copiedNotice: TIMINGS.successMessageMs },
}).createMachine({
  id: 'chatsFooter',
  context: {},
  type: 'parallel',
  states: {
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'footer.openContacts': 'contacts', 'footer.openProfile': 'profile' },
        },
        contacts: {
          tags: [FOOTER_TAGS.contacts],
          invoke: { id: 'chatOpened', src: 'chatOpened' },
          on: {
            'footer.close': { target: 'closed', actions: 'resetCodeSearch' },
            'footer.chatOpened': 'closed',
            'footer.openProfile': { target: 'profile', actions: 'resetCodeSearch' },
          },
        },
        profile: {
          tags: [FOOTER_TAGS.profile],
          on: {
            'footer.close': { target: 'closed', actions: 'cancelAvatar' },
            'footer.openContacts': { target: 'contacts', actions: 'cancelAvatar' },
          },
        },
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
