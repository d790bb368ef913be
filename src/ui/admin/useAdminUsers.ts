// «Пользователи»: its actor (alive while the tab is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { ADMIN_TAGS, type AdminUser, type UserAction } from '../../machines/admin/adminUsers/adminUsers.protocol';
import { useSessionRef } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: AdminUser[] = [];

export function useAdminUsers() {
  const actor = useOwnedActor('adminUsers');
  const users = useSelector(actor, (s) => s?.context.users ?? NONE);
  const pending = useSelector(actor, (s) => s?.context.pending ?? null);
  const confirming = useSelector(actor, (s) => s?.hasTag(ADMIN_TAGS.confirming) ?? false);
  const resetLink = useSelector(actor, (s) => s?.context.resetLink ?? null);
  const asked = confirming && pending ? users.find((u) => u.id === pending.userId) : undefined;
  const linkFor = resetLink ? users.find((u) => u.id === resetLink.userId) : undefined;
  return {
    users,
    /** The administrator looking: their own account is never offered «Отключить». */
    ownId: useSelector(useSessionRef(), (s) => s.context.session?.user.id ?? null),
    query: useSelector(actor, (s) => s?.context.query ?? ''),
    busy: useSelector(actor, (s) => s?.hasTag(ADMIN_TAGS.busy) ?? true),
    hasMore: useSelector(actor, (s) => (s?.context.nextCursor ?? null) !== null),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    /** The action asked about («Отключить …?»), with whom it is about. */
    confirm:
      asked && pending && pending.action !== 'resetLink' ? { action: pending.action, name: asked.displayName } : null,
    resetLink: resetLink
      ? {
          url: window.location.origin + resetLink.path,
          expiresAt: resetLink.expiresAt,
          name: linkFor?.displayName ?? '',
        }
      : null,
    copied: useSelector(actor, (s) => s?.hasTag(ADMIN_TAGS.copied) ?? false),
    onSearch: (query: string) => actor.send({ type: 'users.search', query }),
    onMore: () => actor.send({ type: 'users.more' }),
    onAct: (userId: string, action: UserAction) => actor.send({ type: 'users.act', userId, action }),
    onConfirm: () => actor.send({ type: 'users.confirm' }),
    onCancel: () => actor.send({ type: 'users.cancel' }),
    onResetLink: (userId: string) => actor.send({ type: 'users.resetLink', userId }),
    onCopyLink: () => actor.send({ type: 'users.copyLink' }),
    onCloseLink: () => actor.send({ type: 'users.closeLink' }),
  };
}
export type AdminUsersView = ReturnType<typeof useAdminUsers>;
