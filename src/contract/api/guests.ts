// Guest links to calls (server/guests/): the members' routes and the guest's public ones; the schemas are in
// src/contract/guests.ts.
// Each route's method and path are in ./guests.routes.ts; its schemas are joined to it here, by the same name.
import {
  CreateGuestLinkBody,
  GuestAdmissionBody,
  GuestAdmissionResponse,
  GuestCodeParams,
  GuestKnockBody,
  GuestKnockResponse,
  GuestLinkInfoResponse,
  GuestLinkResponse,
  GuestLinksQuery,
  GuestLinksResponse,
  GuestTokenResponse,
  KnockParams,
  KnockSecretBody,
  RevokeGuestLinkBody,
  WaitingGuestsResponse,
} from '../guests';
import { guestsRoutes } from './guests.routes';
import { Ok, withSchemas } from './with-schemas';

/** The routes of ./guests.routes with their schemas. */
export const guestsApi = withSchemas(guestsRoutes, {
  createGuestLink: { body: CreateGuestLinkBody, response: GuestLinkResponse },
  guestLinks: { query: GuestLinksQuery, response: GuestLinksResponse },
  revokeGuestLink: { body: RevokeGuestLinkBody, response: Ok },
  guestAdmission: { body: GuestAdmissionBody, response: GuestAdmissionResponse },
  waitingGuests: { query: GuestLinksQuery, response: WaitingGuestsResponse },
  guestLinkInfo: { params: GuestCodeParams, response: GuestLinkInfoResponse },
  guestKnock: { params: GuestCodeParams, body: GuestKnockBody, response: GuestKnockResponse },
  guestToken: { params: KnockParams, body: KnockSecretBody, response: GuestTokenResponse },
  guestLeave: { params: KnockParams, body: KnockSecretBody, response: Ok },
});
