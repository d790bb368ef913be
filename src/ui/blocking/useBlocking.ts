// The blocking actor (alive while the view that calls this is mounted) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { PublicUser } from '../../contract/entities';

const NONE: PublicUser[] = [];

/** `list`: Settings, which shows who is blocked (loaded as the actor starts). */
export function useBlocking(options: { list?: boolean } = {}) {
  const actor = useOwnedActor('blocking', { list: options.list === true });
  return {
    users: useSelector(actor, (s) => s?.context.users ?? NONE),
    loaded: useSelector(actor, (s) => s?.context.loaded ?? false),
    // Busy too until the actor is here (its code loads on demand): a click before would be lost.
    busy: useSelector(actor, (s) => s?.hasTag('busy') ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    load: () => actor.send({ type: 'blocking.load' }),
    block: (userId: string) => actor.send({ type: 'blocking.block', userId }),
    unblock: (userId: string) => actor.send({ type: 'blocking.unblock', userId }),
  };
}
export type BlockingView = ReturnType<typeof useBlocking>;
