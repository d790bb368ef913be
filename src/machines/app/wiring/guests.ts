// The guests feature's effects: the guest's public requests over the API client and the guest's own socket.
import { fromCallback, fromPromise } from 'xstate';
import { guestLinkUrl } from '../../../contract/guest-rules';
import { openGuestDoor } from '../../../services/guests/guest-door';
import { serverRequest } from '../../realtime/index';
import type { Services } from '../services';
import { toClipboard } from './clipboard';
import { guestDoorMachine } from '../../guests/guestDoor/guestDoor.machine';
import { guestLinksMachine } from '../../guests/guestLinks/guestLinks.machine';
import { guestPageMachine } from '../../guests/guestPage/guestPage.machine';
import type { GuestKnock, GuestPageEvent } from '../../guests/guestPage/guestPage.protocol';

export const wireGuestPage = (s: Services) =>
  guestPageMachine.provide({
    actors: {
      loadInfo: fromPromise(({ input }: { input: { code: string } }) =>
        s.api.call('guestLinkInfo', { params: { code: input.code } }),
      ),
      knock: fromPromise(async ({ input }: { input: { code: string; name: string } }): Promise<GuestKnock> => {
        const { knockId, secret } = await s.api.call('guestKnock', {
          params: { code: input.code },
          body: { name: input.name },
        });
        return { knockId, secret };
      }),
      door: fromCallback<GuestPageEvent, GuestKnock>(({ input, sendBack }) =>
        openGuestDoor(input, (state) => sendBack({ type: 'guest.state', state })),
      ),
      fetchToken: fromPromise(({ input }: { input: GuestKnock }) =>
        s.api.call('guestToken', { params: { id: input.knockId }, body: { secret: input.secret } }),
      ),
      leave: fromPromise<unknown, GuestKnock>(({ input }) =>
        s.api.call('guestLeave', { params: { id: input.knockId }, body: { secret: input.secret } }),
      ),
    },
  });

export const wireGuestDoor = (s: Services) =>
  guestDoorMachine.provide({
    actors: {
      loadWaiting: fromPromise(
        async ({ input }: { input: { room: string } }) =>
          (await s.api.call('waitingGuests', { query: { room: input.room } })).guests,
      ),
      createLink: fromPromise(async ({ input }: { input: { room: string; hours: number } }) => {
        const { link } = await s.api.call('createGuestLink', { body: { room: input.room, hours: input.hours } });
        // Copied at once where the browser allows it; the view shows the address either way.
        await navigator.clipboard?.writeText(guestLinkUrl(window.location.origin, link.code)).catch(() => {});
        return link;
      }),
      decide: serverRequest,
    },
  });

export const wireGuestLinks = (s: Services) =>
  guestLinksMachine.provide({
    actors: {
      loadLinks: fromPromise(({ input }: { input: { room: string } }) =>
        s.api.call('guestLinks', { query: { room: input.room } }),
      ),
      createLink: fromPromise<unknown, { room: string; hours: number }>(({ input }) =>
        s.api.call('createGuestLink', { body: { room: input.room, hours: input.hours } }),
      ),
      revokeLink: fromPromise<unknown, { code: string }>(({ input }) =>
        s.api.call('revokeGuestLink', { body: { code: input.code } }),
      ),
      copyLink: toClipboard((input: { code: string }) => guestLinkUrl(window.location.origin, input.code)),
      saveAdmission: fromPromise(({ input }: { input: { conversationId: string; adminsOnly: boolean } }) =>
        s.api.call('guestAdmission', { body: input }),
      ),
    },
  });
