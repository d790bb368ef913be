// The one way a feature actor hears server events: invoke (or spawn) the logic this returns, giving a mapper
// per event name it cares about. Each mapper receives that event's payload, typed and validated by the contract
// (src/contract/events.ts), and returns the feature's own `domain.verb` event, or null to ignore it; the event
// is sent to the actor that invoked the listener. `onConnected` fires on every (re)connection, so the feature
// can resynchronise (rejoin, refetch, flush) after a gap in which events were missed.
import { type EventObject, fromCallback } from 'xstate';
import type { ServerEvent, ServerEventName } from '../../../contract/events';
import { systemActor } from '../../shared/system';

export type ServerEventMappers<E extends EventObject> = {
  [K in ServerEventName]?: (payload: ServerEvent<K>) => E | null;
};

/** `I`: the input the invoking machine gives (ignored here; a wiring that replaces the listener may use it). */
export function listenToServer<E extends EventObject, I = void>(
  mappers: ServerEventMappers<E>,
  options: { onConnected?: () => E | null } = {},
) {
  return fromCallback<EventObject, I>(({ system, sendBack }) => {
    const realtime = systemActor(system, 'realtime');
    if (!realtime) return;
    const subs = [
      realtime.on('server.event', (e) => {
        const map = mappers[e.name] as ((payload: unknown) => E | null) | undefined;
        const out = map?.(e.payload);
        if (out) sendBack(out);
      }),
    ];
    const { onConnected } = options;
    if (onConnected) {
      subs.push(
        realtime.on('realtime.connected', () => {
          const out = onConnected();
          if (out) sendBack(out);
        }),
      );
    }
    return () => {
      for (const s of subs) s.unsubscribe();
    };
  });
}
