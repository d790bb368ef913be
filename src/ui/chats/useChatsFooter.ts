import { useEffect, useRef, useState } from 'react';
import { contactsTileSubtitle, filterContacts } from '../../machines/contacts/contact-list';
import { useContactCode } from '../contacts/useContactCode';
import { useContacts } from '../contacts/useContacts';
import { useGroupDialog } from '../contacts/useGroupDialog';
import { useAvatarEditor } from '../profile/useAvatarEditor';
import { useOwnUser } from '../profile/useOwnUser';

export type FooterDialog = 'contacts' | 'profile' | null;

/** Everything the chats footer and the dialogs it opens need, as values and callbacks. */
export function useChatsFooter() {
  const me = useOwnUser();
  const contacts = useContacts();
  const code = useContactCode();
  const group = useGroupDialog();
  const avatar = useAvatarEditor();
  const [dialog, setDialog] = useState<FooterDialog>(null);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);
  // Opening a chat from the contacts dialog leaves it.
  const { actor } = contacts;
  useEffect(() => {
    if (!actor) return;
    const sub = actor.on('contacts.chatOpened', () => setDialog(null));
    return () => sub.unsubscribe();
  }, [actor]);

  const copy = async () => {
    if (!me) return;
    try {
      await navigator.clipboard.writeText(me.eblid);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), 2_200);
    } catch {
      setCopied(false); // the clipboard can be refused; the code stays visible to copy by hand
    }
  };

  return {
    me,
    contactsSubtitle: contactsTileSubtitle(contacts.contacts),
    incoming: filterContacts(contacts.contacts, 'incoming'),
    friends: filterContacts(contacts.contacts, 'accepted'),
    contacts,
    code,
    group,
    avatar,
    dialog,
    copied,
    copy,
    openContacts: () => setDialog('contacts'),
    openProfile: () => setDialog('profile'),
    closeDialog: () => {
      if (dialog === 'contacts') code.onReset();
      if (dialog === 'profile' && (avatar.stage === 'editing' || avatar.stage === 'reading')) avatar.onCancel();
      setDialog(null);
    },
  };
}
