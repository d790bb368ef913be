// The chats footer's protocol (registry line 'chatsFooter'): which of its dialogs is open (contacts with the EBLID
// search, or the profile with the avatar editor) and the "copied" confirmation of the own EBLID. Views import
// this module, never chatsFooter.machine.ts.
import type { EventObject } from 'xstate';
import type { ContactCodeRef } from '../../contacts/contactCode/contactCode.protocol';
import type { GroupDialogRef } from '../../contacts/groupDialog/groupDialog.protocol';
import type { AvatarRef } from '../../profile/avatar/avatar.protocol';
import type { MachineRef, SnapshotOf } from '../../shared/machine-ref';
import type { CopyTextEffect, LoadOwnedEffect } from '../../shared/effects.protocol';

/** The dialogs' machines, wired (the registry lines owned by 'chatsFooter'). */
export type ChatsFooterDialog = 'contactCode' | 'avatar' | 'groupDialog';

export interface ChatsFooterContext {
  /** The avatar editor is cropping, uploading or saving (its actor then outlives the dialog until it is done). */
  avatarBusy: boolean;
}

export type ChatsFooterEvent =
  | { type: 'footer.openContacts' }
  | { type: 'footer.openProfile' }
  | { type: 'footer.openGroup' }
  /** The folded EBLID panel was unfolded for the first time. */
  | { type: 'footer.unfold' }
  /** The dialog's close button, Escape or a click outside it. */
  | { type: 'footer.close' }
  /** A chat was opened from the contacts dialog: the dialog steps aside for it. */
  | { type: 'footer.chatOpened' }
  /** Copy the own EBLID to the clipboard. */
  | { type: 'footer.copy'; text: string };

/** Tags the footer's view reads. */
export const FOOTER_TAGS = {
  group: 'groupOpen',
  contacts: 'contactsOpen',
  profile: 'profileOpen',
  copied: 'copied',
} as const;

/** The dialogs' actors while they are open, and the folded panel's search once unfolded. */
export interface ChatsFooterChildren {
  groupDialog?: GroupDialogRef;
  contactCode?: ContactCodeRef;
  avatar?: AvatarRef;
  foldCode?: ContactCodeRef;
}

export type ChatsFooterRef = MachineRef<ChatsFooterContext, ChatsFooterEvent, EventObject, ChatsFooterChildren>;

/** One of the footer's dialogs' actors while it is open (or the folded panel's search once unfolded). */
export const footerDialogOf =
  <K extends keyof ChatsFooterChildren>(dialog: K) =>
  (s: SnapshotOf<ChatsFooterRef> | undefined): ChatsFooterChildren[K] =>
    s?.children[dialog];

/** The machine's port: the effects it leaves to its feature's services (src/services/chats/chats.effects.ts). */
export interface ChatsFooterEffects {
  /** Writes the text to the clipboard. */
  copyText: CopyTextEffect;
  /** The dialogs' machines, wired (the registry lines 'contactCode', 'avatar', 'groupDialog'). */
  loadOwned: LoadOwnedEffect<ChatsFooterDialog>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface OwnedActors {
    /** The chats page's footer (spawned while it is shown). */
    chatsFooter: ChatsFooterRef;
  }
}
