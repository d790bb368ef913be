import { useSelector } from '@xstate/react';
import { FOOTER_TAGS, footerDialogOf } from '../../machines/chats/chatsFooter/chatsFooter.protocol';
import { contactsTileSubtitle, filterContacts } from '../../machines/contacts/index';
import { useOwnedActor } from '../app/useOwnedActor';
import { useContactCode, useContacts, useGroupDialog } from '../contacts/index';
import { useAvatarEditor, useOwnUser } from '../profile/index';

const contactCodeOf = footerDialogOf('contactCode');
const foldCodeOf = footerDialogOf('foldCode');
const avatarOf = footerDialogOf('avatar');
const groupDialogOf = footerDialogOf('groupDialog');

export type FooterDialog = 'group' | 'contacts' | 'profile' | null;

/** Everything the chats footer and the dialogs it opens need, as values and callbacks (the footer actor decides). */
export function useChatsFooter() {
  const me = useOwnUser();
  const contacts = useContacts();
  // The footer's actor lives while the footer is shown; each dialog's actor while that dialog is open.
  const footer = useOwnedActor('chatsFooter');
  const dialog = useSelector(footer, (s): FooterDialog => {
    if (s?.hasTag(FOOTER_TAGS.group)) return 'group';
    if (s?.hasTag(FOOTER_TAGS.contacts)) return 'contacts';
    if (s?.hasTag(FOOTER_TAGS.profile)) return 'profile';
    return null;
  });
  const copied = useSelector(footer, (s) => s?.hasTag(FOOTER_TAGS.copied) ?? false);
  const code = useContactCode(useSelector(footer, contactCodeOf));
  const foldCode = useContactCode(useSelector(footer, foldCodeOf));
  const avatar = useAvatarEditor(useSelector(footer, avatarOf));
  const group = useGroupDialog(useSelector(footer, groupDialogOf), {
    open: dialog === 'group',
    onOpen: () => footer.send({ type: 'footer.openGroup' }),
  });

  return {
    me,
    contactsSubtitle: contactsTileSubtitle(contacts.contacts),
    incoming: filterContacts(contacts.contacts, 'incoming'),
    friends: filterContacts(contacts.contacts, 'accepted'),
    contacts,
    code,
    foldCode,
    unfold: () => footer.send({ type: 'footer.unfold' }),
    group,
    avatar,
    dialog,
    copied,
    copy: () => {
      if (me) footer.send({ type: 'footer.copy', text: me.eblid });
    },
    openContacts: () => footer.send({ type: 'footer.openContacts' }),
    openProfile: () => footer.send({ type: 'footer.openProfile' }),
    closeDialog: () => footer.send({ type: 'footer.close' }),
  };
}
