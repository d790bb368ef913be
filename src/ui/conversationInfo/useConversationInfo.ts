// «Информация»: its actor (alive while the panel is open) and the open conversation's list entry as plain values and
// callbacks. Escape closes the panel; so does leaving the group.
import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useMemo } from 'react';
import type { ConversationEntry, PublicUser } from '../../contract/entities';
import { displayName, isMuted } from '../../contract/format';
import type { ChatAction } from '../../machines/chats/chatActions/chatActions.protocol';
import { filterContacts } from '../../machines/contacts/index';
import {
  type GroupAction,
  INFO_TAGS,
} from '../../machines/conversationInfo/conversationInfo/conversationInfo.protocol';
import { useOwnedActor } from '../app/useOwnedActor';
import { useContacts } from '../contacts/index';
import { infoView } from './info-view';

export function useConversationInfo(options: {
  conversationId: string;
  entry: ConversationEntry | null;
  me: string;
  now: number;
  onClose(): void;
  /** A direct chat: whether the user blocked the other person, and how to change it (the blocking actor). */
  block?: { blocked: boolean; busy: boolean; onBlock(): void; onUnblock(): void };
  /** One's own chat actions (the chat list menu's actor): mute, pin, archive, clear, delete. */
  chat?: (action: ChatAction) => void;
  /** «Ссылка-приглашение» (the invites feature's section), shown to owner and admins. */
  invites?: ReactNode;
  /**
   * «Ссылки на звонки» (the guests feature's section) for a plain chat's call: `manage` for a group's owner and
   * admins, `group` for a group; a secret chat's call takes no guests yet.
   */
  callLinks?: (who: { manage: boolean; group: boolean }) => ReactNode;
  /** «Изменить фото» (the profile feature's crop editor), shown to owner and admins. */
  picture?: ReactNode;
  /** «Пожаловаться» on the other person of a direct chat (the reports feature's button). */
  report?: ReactNode;
  /** A secret chat's «Проверить шифрование» (the secret chats feature's button). */
  verify?: ReactNode;
}) {
  const { conversationId, entry, me, now, onClose } = options;
  const actor = useOwnedActor('conversationInfo', { conversationId });
  const adding = useSelector(actor, (s) => s?.hasTag(INFO_TAGS.adding) ?? false);
  const renaming = useSelector(actor, (s) => s?.hasTag(INFO_TAGS.renaming) ?? false);
  const confirming = useSelector(actor, (s) => s?.hasTag(INFO_TAGS.confirming) ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag(INFO_TAGS.busy) ?? false);
  const pending = useSelector(actor, (s) => s?.context.pending ?? null);
  const selected = useSelector(actor, (s) => s?.context.selected ?? []);
  const title = useSelector(actor, (s) => s?.context.title ?? '');
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const { contacts } = useContacts();

  useEffect(() => {
    const sub = actor.on('info.left', () => onClose());
    return () => sub.unsubscribe();
  }, [actor, onClose]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const view = useMemo(() => (entry ? infoView(entry, me, now) : null), [entry, me, now]);
  // A group's other members by id: their row's «Написать» opens the direct chat (docs/behaviour.md §10.26).
  const people = useMemo(() => {
    const map = new Map<string, PublicUser>();
    if (entry?.conversation.isGroup) for (const p of entry.conversation.participants) map.set(p.user.id, p.user);
    map.delete(me);
    return map as ReadonlyMap<string, PublicUser>;
  }, [entry, me]);
  // The tabs' senders by name (docs/behaviour.md §10.46).
  const names = useMemo(
    () =>
      new Map(
        (entry?.conversation.participants ?? []).map((p) => [p.user.id, displayName(p.user)] as const),
      ) as ReadonlyMap<string, string>,
    [entry],
  );
  const memberIds = new Set(entry?.conversation.participants.map((p) => p.user.id) ?? []);
  const friends = filterContacts(contacts, 'accepted');
  const addable = friends
    .filter((c) => !memberIds.has(c.friend.id))
    .map((c) => ({ id: c.friend.id, name: displayName(c.friend), ticked: selected.includes(c.friend.id) }));
  // «Люди» under the friends leave out who is listed above or already in the group (docs/behaviour.md §10.28).
  const addExclude: ReadonlySet<string> = new Set([...memberIds, ...friends.map((c) => c.friend.id)]);
  const nameOf = (id: string) => view?.members.find((m) => m.id === id)?.name ?? '';
  const confirmText =
    pending?.kind === 'leave'
      ? { question: 'Покинуть группу?', yes: 'Покинуть' }
      : pending?.kind === 'remove'
        ? { question: `Удалить из группы: ${nameOf(pending.userId)}?`, yes: 'Удалить' }
        : null;

  const run = options.chat;
  const settings = entry?.settings;
  const muted = isMuted(settings, now);
  const chat = run
    ? {
        muted,
        pinned: settings?.pinned ?? false,
        archived: settings?.archived ?? false,
        markedUnread: settings?.markedUnread ?? false,
        onMarkUnread: () =>
          run({ kind: 'settings', conversationId, change: { markedUnread: !(settings?.markedUnread ?? false) } }),
        onMute: () => run({ kind: 'settings', conversationId, change: { mutedUntil: muted ? null : 'forever' } }),
        onPin: () => run({ kind: 'settings', conversationId, change: { pinned: !(settings?.pinned ?? false) } }),
        onArchive: () =>
          run({ kind: 'settings', conversationId, change: { archived: !(settings?.archived ?? false) } }),
        onClear: () => run({ kind: 'clear', conversationId }),
        onDelete: () => run({ kind: 'hide', conversationId }),
      }
    : null;

  const c = entry?.conversation;
  return {
    view,
    people,
    chat,
    /** «Медиа», «Файлы», «Ссылки», «Голосовые» (their own actor); a secret chat's come from this browser. */
    media: entry ? { conversationId, userId: me, secret: entry.conversation.secret === true, names, onClose } : null,
    /** «История для новых участников»: owner and admins of a group that has the setting (not a secret chat). */
    history: view?.canManage && c?.historyVisible !== undefined ? { conversationId, visible: c.historyVisible } : null,
    /**
     * «Импорт истории» (docs/behaviour.md §10.39): owner and admins of a group, either person of a direct chat; its
     * authors can be any member.
     */
    historyImport:
      view && c && (view.canManage || !view.isGroup)
        ? {
            conversationId,
            secret: c.secret === true,
            userId: me,
            candidates: c.participants.map((p) => ({ userId: p.user.id, name: displayName(p.user) })),
          }
        : null,
    /** A secret group says instead that newcomers read from their joining on. */
    secretGroup: Boolean(view?.isGroup && c?.secret),
    invites: view?.canManage ? (options.invites ?? null) : null,
    callLinks:
      view && !view.secret ? (options.callLinks?.({ manage: view.canManage, group: view.isGroup }) ?? null) : null,
    picture: view?.canManage ? (options.picture ?? null) : null,
    block: view?.peer ? (options.block ?? null) : null,
    report: view?.peer ? (options.report ?? null) : null,
    verify: options.verify ?? null,
    adding,
    renaming,
    confirm: confirming ? confirmText : null,
    busy,
    error,
    addable,
    /** Everyone ticked, friends and people from the directory alike. */
    selected,
    addExclude,
    title,
    onClose,
    onAction: (a: GroupAction) => {
      if (a.kind === 'remove') actor.send({ type: 'info.remove', userId: a.userId });
      else if (a.kind === 'role') actor.send({ type: 'info.role', userId: a.userId, role: a.role });
    },
    onAddOpen: () => actor.send({ type: 'info.addOpen' }),
    onToggle: (userId: string) => actor.send({ type: 'info.toggle', userId }),
    onAddConfirm: () => actor.send({ type: 'info.addConfirm' }),
    onRenameOpen: () => actor.send({ type: 'info.renameOpen', title: view?.title ?? '' }),
    onTitle: (t: string) => actor.send({ type: 'info.titleChanged', title: t }),
    onRenameConfirm: () => actor.send({ type: 'info.renameConfirm' }),
    onLeave: () => actor.send({ type: 'info.leave' }),
    onOpen: (open: boolean) => actor.send({ type: 'info.setOpen', open }),
    /** «Обсуждения» of a group (owner and admins): on unless turned off; null in a secret chat (none there). */
    // While the change is saved the switch shows what was asked for, not the old value it snaps back to.
    threadsOn: entry?.conversation.secret
      ? null
      : busy && pending?.kind === 'threads'
        ? pending.enabled
        : entry?.conversation.threadsOff !== true,
    onThreads: (enabled: boolean) => actor.send({ type: 'info.threads', enabled }),
    onConfirm: () => actor.send({ type: 'info.confirm' }),
    onCancel: () => actor.send({ type: 'info.cancel' }),
  };
}
export type ConversationInfoProps = ReturnType<typeof useConversationInfo>;
