// Settings' «Папки»: the folders actor (alive while the section is shown) as plain values and callbacks, and the chats
// the dialog's picker offers (the chat list's, by their titles).
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ChatFolderData, FolderDraft } from '../../contract/chat-folders';
import { conversationTitle } from '../../contract/format';
import { useOwnedActor } from '../app/useOwnedActor';
import { useOwnUser } from '../profile/index';
import { useChatEntries } from '../shared/useChatList';

const NONE: ChatFolderData[] = [];

export interface PickableChat {
  id: string;
  title: string;
}

export function useFolderSettings() {
  const actor = useOwnedActor('folders');
  const entries = useChatEntries();
  const me = useOwnUser()?.id ?? null;
  const chats = useMemo(
    (): PickableChat[] => entries.map((e) => ({ id: e.conversation.id, title: conversationTitle(e.conversation, me) })),
    [entries, me],
  );
  const editing = useSelector(actor, (s) => s?.context.editing ?? null);
  const folders = useSelector(actor, (s) => s?.context.folders ?? NONE);
  return {
    folders,
    chats,
    loaded: useSelector(actor, (s) => s?.context.loaded ?? false),
    // Busy too until the actor is here (its code loads on demand): a click before would be lost.
    busy: useSelector(actor, (s) => s?.hasTag('busy') ?? true),
    dialog: useSelector(actor, (s) => s?.hasTag('dialog') ?? false),
    /** The folder being edited, null for a new one (while the dialog is open). */
    editing: folders.find((f) => f.id === editing) ?? null,
    error: useSelector(actor, (s) => s?.context.error ?? null),
    load: () => actor.send({ type: 'folders.refresh' }),
    create: () => actor.send({ type: 'folders.edit', id: null }),
    edit: (id: string) => actor.send({ type: 'folders.edit', id }),
    cancel: () => actor.send({ type: 'folders.cancel' }),
    save: (draft: FolderDraft) => actor.send({ type: 'folders.save', draft }),
    remove: (id: string) => actor.send({ type: 'folders.delete', id }),
    move: (id: string, by: -1 | 1) => actor.send({ type: 'folders.move', id, by }),
  };
}
export type FolderSettingsView = ReturnType<typeof useFolderSettings>;
