// The directory's view of its actor (alive while a view that shows it is mounted): plain values and callbacks.
import { useSelector } from '@xstate/react';
import { DIRECTORY_TAGS, type DirectoryEvent } from '../../machines/directory/directory/directory.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export function useDirectory() {
  const actor = useOwnedActor('directory');
  const shown = useSelector(actor, (s) => s?.hasTag(DIRECTORY_TAGS.shown) ?? false);
  const failed = useSelector(actor, (s) => s?.hasTag(DIRECTORY_TAGS.failed) ?? false);
  const busy = useSelector(actor, (s) => s?.hasTag(DIRECTORY_TAGS.busy) ?? false);
  const q = useSelector(actor, (s) => s?.context.q ?? '');
  const users = useSelector(actor, (s) => s?.context.users ?? []);
  const groups = useSelector(actor, (s) => s?.context.groups ?? []);
  const joining = useSelector(actor, (s) => s?.context.joining ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  const send = (e: DirectoryEvent) => actor.send(e);
  return {
    shown,
    failed,
    busy,
    q,
    users,
    groups,
    joining,
    error,
    onSearch: (value: string) => send({ type: 'directory.search', q: value }),
    onJoin: (conversationId: string) => send({ type: 'directory.join', conversationId }),
    onRetry: () => send({ type: 'directory.retry' }),
  };
}

export type DirectoryView = ReturnType<typeof useDirectory>;
