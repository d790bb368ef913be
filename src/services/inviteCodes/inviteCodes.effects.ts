// The invite codes' effects: requests over the API client of the composition root, and links to the clipboard.
import { fromPromise } from 'xstate';
import { toClipboard } from '../app/clipboard';
import type { Services } from '../app/services';
import {
  type InviteCodesEffects,
  inviteCodesMachine,
} from '../../machines/inviteCodes/inviteCodes/inviteCodes.machine';
import { type NewInvite, registrationInviteLink } from '../../machines/inviteCodes/inviteCodes/inviteCodes.protocol';

export const wireInviteCodes = (s: Services) =>
  inviteCodesMachine.provide({
    actors: {
      load: fromPromise(async () => {
        const [info, list] = await Promise.all([s.api.call('registrationInfo'), s.api.call('registrationInvites')]);
        return { mode: info.mode, invites: list.invites, canCreate: list.canCreate };
      }),
      createInvite: fromPromise<unknown, NewInvite>(({ input }) =>
        s.api.call('createRegistrationInvite', {
          body: {
            expiresInHours: input.expiresInHours,
            maxUses: input.maxUses,
            ...(input.note.trim() ? { note: input.note.trim() } : {}),
          },
        }),
      ),
      revokeInvite: fromPromise<unknown, { code: string }>(({ input }) =>
        s.api.call('revokeRegistrationInvite', { body: { code: input.code } }),
      ),
      copyCode: toClipboard((input: { code: string }) => registrationInviteLink(window.location.origin, input.code)),
    } satisfies InviteCodesEffects,
  });
