// Post-compromise security (docs/secret-chats.md "Forward secrecy and post-compromise security"): each device
// commits an update of its own leaf, with a path, at least every SECRET_LEAF_MAX_AGE_MS of use, and at once after
// a commit that removed a device or that added some without a path (ts-mls gives an add-only commit none). A
// commit with a path replaces this device's leaf and path keys, so a copy of its state taken before (a stolen
// profile) cannot follow that commit nor read what is sent after it. What is kept per group: when this device last
// committed a path, and whether one is owed now.
import type { ClientState } from 'ts-mls/clientState.js';
import { SECRET_LEAF_MAX_AGE_MS } from '../../../machines/secretChats/secretChat/secretChat.protocol';
import * as mls from './mls-engine';
import type { LeafRecord, SecretStore } from './secret-store';

export type { LeafRecord };

/** Whether a commit by this device (its proposals) carries a path: every commit but an add-only one. */
export const hasPath = (added: number, removed: number) => removed > 0 || added === 0;

export function createLeafUpdates(store: SecretStore, now: () => number) {
  const load = (userId: string, conversationId: string) => store.loadLeaf(userId, conversationId);
  const save = (userId: string, conversationId: string, r: LeafRecord) => store.saveLeaf(userId, conversationId, r);
  return {
    /** A leaf just made (a group created or joined from a welcome). */
    fresh: (userId: string, conversationId: string) => save(userId, conversationId, { at: now(), owed: false }),
    /** This device's commit was taken: a path makes its leaf fresh; an add-only one owes a path. */
    async committed(userId: string, conversationId: string, withPath: boolean) {
      if (withPath) await save(userId, conversationId, { at: now(), owed: false });
      else await save(userId, conversationId, { at: (await load(userId, conversationId))?.at ?? now(), owed: true });
    },
    /** Another device's commit was applied: one that removed a leaf owes a path of this device's own. */
    async applied(userId: string, conversationId: string, before: ClientState, after: ClientState) {
      const left = new Set(mls.members(after).map((m) => m.identity.deviceId));
      if (!mls.members(before).some((m) => !left.has(m.identity.deviceId))) return;
      await save(userId, conversationId, { at: (await load(userId, conversationId))?.at ?? now(), owed: true });
    },
    /** A guest left an encrypted call (or was removed): the call's key must move on, so a path is owed now. */
    async owe(userId: string, conversationId: string) {
      await save(userId, conversationId, { at: (await load(userId, conversationId))?.at ?? now(), owed: true });
    },
    /** Whether this device owes the group an update of its leaf now. */
    async due(userId: string, conversationId: string): Promise<boolean> {
      const r = await load(userId, conversationId);
      // A group kept before this record existed: due (its leaf's age is unknown).
      return !r || r.owed || now() - r.at >= SECRET_LEAF_MAX_AGE_MS;
    },
  };
}
