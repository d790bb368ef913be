// The chats footer's protocol (systemId 'chatsFooter'): which of its dialogs is open (contacts with the EBLID
// search, or the profile with the avatar editor) and the "copied" confirmation of the own EBLID. Views import
// this module, never chatsFooter.machine.ts.
import type { MachineRef } from '../../../../core/machines/machine-ref';

// biome-ignore lint/complexity/noBannedTypes: the footer keeps no data, only states
export type ChatsFooterContext = {};

export type ChatsFooterEvent =
  | { type: 'footer.openContacts' }
  | { type: 'footer.openProfile' }
  /** The dialog's close button, Escape or a click outside it. */
  | { type: 'footer.close' }
  /** A chat was opened from the contacts dialog: the dialog steps aside for it. */
  | { type: 'footer.chatOpened' }
  /** Copy the own EBLID to the clipboard. */
  | { type: 'footer.copy'; text: string };

/** Tags the footer's view reads. */
export const FOOTER_TAGS = { contacts: 'contactsOpen', profile: 'profileOpen', copied: 'copied' } as const;

export type ChatsFooterRef = MachineRef<ChatsFooterContext, ChatsFooterEvent>;
