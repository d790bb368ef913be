// The invite page: its actor (alive while the page is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import { JOIN_TAGS } from '../../machines/groupInvites/joinGroup/joinGroup.protocol';

export function useJoinGroup(code: string) {
  const actor = useOwnedActor('joinGroup', { code });
  return {
    preview: useSelector(actor, (s) => s?.context.preview ?? null),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    busy: useSelector(actor, (s) => s?.hasTag(JOIN_TAGS.busy) ?? true),
    gone: useSelector(actor, (s) => s?.hasTag(JOIN_TAGS.gone) ?? false),
    joined: useSelector(actor, (s) => s?.hasTag(JOIN_TAGS.joined) ?? false),
    onJoin: () => actor.send({ type: 'join.confirm' }),
    onRetry: () => actor.send({ type: 'join.retry' }),
  };
}
export type JoinGroupView = ReturnType<typeof useJoinGroup>;
