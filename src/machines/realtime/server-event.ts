// Server events as the realtime actor hands them on: one union member per contract event, so a listener that
// narrows on `name` gets that event's payload type.
import type { ServerEvent, ServerEventName } from '../../contract/events';

export type ServerEventMessage = {
  [K in ServerEventName]: { type: 'server.event'; name: K; payload: ServerEvent<K> };
}[ServerEventName];
