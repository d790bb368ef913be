// «Обсуждения» at the top of the chat list (alive while the list is shown): one's followed threads with their unread
// replies, fetched again whenever a reply arrives, a thread is read or followed elsewhere, or the socket reconnects.
// Views import this module, never followedThreads.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type FollowedThread = ResponseOf<'followedThreads'>['threads'][number];

export interface FollowedThreadsContext {
  threads: FollowedThread[];
  /** The list of threads is unfolded under the entry. */
  expanded: boolean;
}

export type FollowedThreadsEvent = { type: 'threads.refresh' } | { type: 'threads.toggle' };

export const FOLLOWED_TAGS = { loading: 'loading', failed: 'failed' } as const;

export type FollowedThreadsRef = MachineRef<FollowedThreadsContext, FollowedThreadsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/threads/threads.effects.ts). */
export interface FollowedThreadsEffects {
  load: PromiseActorLogic<ResponseOf<'followedThreads'>, unknown>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Обсуждения» of the chat list (spawned while the list is shown). */
    followedThreads: FollowedThreadsRef;
  }
}
