// The group invites feature's effects: requests over the API client, and the link to the clipboard.
import { fromPromise } from 'xstate';
import { toClipboard } from '../app/clipboard';
import type { Services } from '../app/services';
import {
  type GroupInvitesEffects,
  groupInvitesMachine,
} from '../../machines/groupInvites/groupInvites/groupInvites.machine';
import { inviteLink } from '../../machines/groupInvites/groupInvites/groupInvites.protocol';
import { type JoinGroupEffects, joinGroupMachine } from '../../machines/groupInvites/joinGroup/joinGroup.machine';

export const wireGroupInvites = (s: Services) =>
  groupInvitesMachine.provide({
    actors: {
      loadInvites: fromPromise(
        async ({ input }: { input: { conversationId: string } }) =>
          (await s.api.call('groupInvites', { params: { id: input.conversationId } })).invites,
      ),
      createInvite: fromPromise<unknown, { conversationId: string; expiresAt: string | null; maxUses: number | null }>(
        ({ input }) =>
          s.api.call('createInvite', {
            body: { conversationId: input.conversationId, expiresAt: input.expiresAt, maxUses: input.maxUses },
          }),
      ),
      revokeInvite: fromPromise<unknown, { code: string }>(({ input }) =>
        s.api.call('revokeInvite', { body: { code: input.code } }),
      ),
      copyInvite: toClipboard((input: { code: string }) => inviteLink(window.location.origin, input.code)),
    } satisfies GroupInvitesEffects,
  });

export const wireJoinGroup = (s: Services) =>
  joinGroupMachine.provide({
    actors: {
      loadPreview: fromPromise(({ input }: { input: { code: string } }) =>
        s.api.call('invitePreview', { params: { code: input.code } }),
      ),
      join: fromPromise(async ({ input }: { input: { code: string } }) => ({
        conversationId: (await s.api.call('joinByInvite', { params: { code: input.code } })).conversation.id,
      })),
    } satisfies JoinGroupEffects,
  });
