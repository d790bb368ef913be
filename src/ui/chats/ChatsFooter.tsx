// The chats list pane's footer (docs/behaviour.md §2; owned by the contacts feature): 'Новая беседа' opens the group
// dialog; 'Контакты' (its subtitle says whether requests wait, friends exist, or none yet) the contacts dialog;
// the own tile with the EBLID the profile dialog. The four-box EBLID panel is here too, folded.
import { Suspense, useCallback, useState } from 'react';
import type { User } from '../../contract/entities';
import { LazyContactCodePanel, LazyContactsDialog, LazyGroupDialog } from '../contacts/index';
import { LazyProfileDialog } from '../profile/index';
import type { ContactCodeView } from '../contacts/index';
import { UserAvatar } from '../shared/UserAvatar';
import { LazySecretDialog } from '../secretChats/index';
import { useChatsFooter } from './useChatsFooter';
import './chats-footer.css';

// The dialogs (and the crop editor inside the profile dialog) load when first opened, keeping them out of the
// chats page's first bundle; a dialog whose chunk fails to load offers a retry (lazy-view.tsx).
export const GroupDialog = LazyGroupDialog;
export const ContactsDialog = LazyContactsDialog;
export const ProfileDialog = LazyProfileDialog;

export function ChatsFooter() {
  const f = useChatsFooter();
  const { code, group, contacts } = f;
  // «Новый секретный чат»: its own actor (secretDialog) lives while it is open, so the view only says whether it is.
  const [secret, setSecret] = useState(false);
  const closeSecret = useCallback(() => setSecret(false), []);
  return (
    <>
      <ChatsFooterView
        me={f.me}
        contactsSubtitle={f.contactsSubtitle}
        hasIncoming={f.incoming.length > 0}
        code={f.foldCode}
        onUnfold={f.unfold}
        onNewChat={group.onOpen}
        onNewSecretChat={() => setSecret(true)}
        onContacts={f.openContacts}
        onProfile={f.openProfile}
      />
      <Suspense fallback={null}>
        {group.open && <GroupDialog {...group} />}
        {secret && f.me && <LazySecretDialog userId={f.me.id} onClose={closeSecret} />}
        {f.dialog === 'contacts' && f.me && (
          <ContactsDialog
            eblid={f.me.eblid}
            incoming={f.incoming}
            friends={f.friends}
            busy={contacts.busy}
            error={contacts.error}
            code={code}
            copied={f.copied}
            onCopy={f.copy}
            onAccept={contacts.accept}
            onReject={contacts.reject}
            onRemove={contacts.remove}
            onOpenChat={contacts.openChat}
            onClose={f.closeDialog}
          />
        )}
        {f.dialog === 'profile' && f.me && <ProfileDialog me={f.me} avatar={f.avatar} onClose={f.closeDialog} />}
      </Suspense>
    </>
  );
}

export interface ChatsFooterViewProps {
  me: User | null;
  contactsSubtitle: string;
  hasIncoming: boolean;
  /** The folded EBLID panel's search. */
  code: Omit<ContactCodeView, 'onReset'>;
  /** The fold was opened. */
  onUnfold?: () => void;
  onNewChat: () => void;
  onNewSecretChat?: () => void;
  onContacts: () => void;
  onProfile: () => void;
}

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** A comma only a screen reader hears, between a tile's title and its subtitle. */
const Pause = () => <span className="visually-hidden">, </span>;

export function ChatsFooterView(props: ChatsFooterViewProps) {
  // Whether the fold was ever opened: a view's own disclosure state; the panel stays mounted once shown.
  const [opened, setOpened] = useState(false);
  return (
    <footer className="chats-footer">
      <details
        className="footer-code"
        onToggle={(e) => {
          if (!e.currentTarget.open) return;
          setOpened(true);
          // Every time: the first starts its search, a later one tries again if its code could not be fetched.
          props.onUnfold?.();
        }}
      >
        <summary>Поиск по EBLID</summary>
        {opened && <LazyContactCodePanel {...props.code} compact />}
      </details>
      <div className="footer-tiles">
        <button type="button" className="footer-tile" onClick={props.onNewChat}>
          <span className="footer-icon">
            <Icon d="M12 5v14M5 12h14" />
          </span>
          <span className="footer-text">
            <span className="footer-title">Новая беседа</span>
          </span>
        </button>
        {props.onNewSecretChat && (
          <button type="button" className="footer-tile" onClick={props.onNewSecretChat}>
            <span className="footer-icon">
              <Icon d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z" />
            </span>
            <span className="footer-text">
              <span className="footer-title">Новый секретный чат</span>
            </span>
          </button>
        )}
        <button
          type="button"
          className={`footer-tile ${props.hasIncoming ? 'attention' : ''}`}
          onClick={props.onContacts}
        >
          <span className="footer-icon">
            <Icon d="M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm-6 9a6 6 0 0 1 12 0m2-9h5m-2.5-2.5v5" />
          </span>
          <span className="footer-text">
            <span className="footer-title">Контакты</span>
            <Pause />
            <span className="footer-sub">{props.contactsSubtitle}</span>
          </span>
        </button>
        {props.me && (
          <button type="button" className="footer-tile own-tile" onClick={props.onProfile}>
            <UserAvatar user={props.me} size={32} />
            <span className="footer-text">
              <span className="visually-hidden">Профиль: </span>
              <span className="footer-title">{props.me.displayName}</span>
              <Pause />
              <span className="footer-sub">EBLID {props.me.eblid}</span>
            </span>
          </button>
        )}
      </div>
    </footer>
  );
}
