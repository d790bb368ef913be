// The names of the socket events the server sends, without their schemas (./events has those): the client
// listens for each of them without loading zod.
export const SERVER_EVENT_NAMES = [
  'message:new',
  'message:notify',
  'message:deleted',
  'message:edited',
  'reactions:update',
  'receipts:update',
  'conversations:new',
  'conversation:updated',
  'conversation:removed',
  'conversation:settings',
  'contacts:request:new',
  'contacts:request:accepted',
  'contacts:removed',
  'conversation:typing',
  'presence:update',
  'profile:update',
  'call:incoming',
  'call:accepted',
  'call:declined',
  'call:ended',
  'session:expiring',
  'session:expired',
  'session:closed',
] as const;
export type ServerEventName = (typeof SERVER_EVENT_NAMES)[number];
