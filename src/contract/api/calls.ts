// The calls page's history (server/calls/).
// Each route's method and path are in ./calls.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { CallInfo, GroupCall, Id, IsoDate } from '../entities';
import { LIMITS } from '../limits';
import { callsRoutes } from './calls.routes';
import { Ok, withSchemas } from './with-schemas';

/** GET /api/calls: the user's calls, newest first, from the CALL entries they can see. */
export const CallHistoryQuery = z.strictObject({
  /** A message id from `nextBefore`: calls strictly older than it. */
  before: Id.optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.callHistoryMax).default(LIMITS.callHistoryDefault),
});
export const CallHistoryEntry = z.object({
  /** The CALL entry's message id. */
  id: Id,
  conversationId: Id,
  createdAt: IsoDate,
  call: CallInfo,
});
export type CallHistoryEntry = z.infer<typeof CallHistoryEntry>;
export const CallHistoryResponse = z.object({ calls: z.array(CallHistoryEntry), nextBefore: Id.nullable() });

/** Whom an owner or admin of the group mutes or removes from its call. */
export const CallModeration = z.strictObject({ userId: Id });

/** The routes of ./calls.routes with their schemas. */
export const callsApi = withSchemas(callsRoutes, {
  callHistory: { query: CallHistoryQuery, response: CallHistoryResponse },
  groupCall: { params: z.strictObject({ id: Id }), response: z.object({ call: GroupCall.nullable() }) },
  groupCallMute: { params: z.strictObject({ id: Id }), body: CallModeration, response: Ok },
  groupCallRemove: { params: z.strictObject({ id: Id }), body: CallModeration, response: Ok },
});
