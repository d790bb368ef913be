// Registers client → server socket events: each payload is validated with the contract's schema and
// each handler's outcome becomes the acknowledgement {ok:true} or {ok:false, message}.
import type { Socket } from 'socket.io';
import type { Ack, ClientEvent, ClientEventName } from '../../src/contract/events';
import { clientEvents } from '../../src/contract/events';
import { databaseFailure } from '../db/unavailable';
import { HttpError, zodMessage } from '../http/errors';

type AckFn = (ack: Ack) => void;

/** Per socket: bursts of up to 30 events, 10 a second sustained; enough for typing and calls, not for floods. */
const BURST = 30;
const PER_SECOND = 10;
const budgets = new WeakMap<Socket, { tokens: number; at: number }>();

function withinBudget(socket: Socket): boolean {
  const now = Date.now();
  const b = budgets.get(socket) ?? { tokens: BURST, at: now };
  b.tokens = Math.min(BURST, b.tokens + ((now - b.at) / 1000) * PER_SECOND);
  b.at = now;
  budgets.set(socket, b);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

export function onClientEvent<K extends ClientEventName>(
  socket: Socket,
  name: K,
  handler: (data: ClientEvent<K>) => Promise<void> | void,
  log: (err: unknown) => void,
): void {
  // Registered untyped: the payload is unknown until the contract's schema has checked it.
  (socket as unknown as { on(ev: string, fn: (...args: unknown[]) => void): void }).on(
    name,
    async (...args: unknown[]) => {
      const ack: AckFn = typeof args.at(-1) === 'function' ? (args.pop() as AckFn) : () => {};
      if (!withinBudget(socket)) return ack({ ok: false, message: 'Слишком много событий. Подождите немного.' });
      const parsed = clientEvents[name].safeParse(args[0]);
      if (!parsed.success) return ack({ ok: false, message: zodMessage(parsed.error) });
      try {
        await handler(parsed.data as ClientEvent<K>);
        ack({ ok: true });
      } catch (err) {
        // A database outage is refused with its retry-able message (the socket stays open), like REST's 503.
        const refusal = databaseFailure(err) ?? (err instanceof HttpError ? err : null);
        if (refusal) return ack({ ok: false, message: refusal.message });
        log(err);
        ack({ ok: false, message: 'Внутренняя ошибка сервера' });
      }
    },
  );
}

/** Events outside the contract change nothing; a caller that asked for an acknowledgement is told so. */
export function refuseUnknownEvents(socket: Socket): void {
  socket.onAny((event: string, ...args: unknown[]) => {
    if (event in clientEvents) return;
    const ack = args.at(-1);
    if (typeof ack === 'function')
      (ack as AckFn)({ ok: false, message: `Неизвестное событие: ${String(event).slice(0, 64)}` });
  });
}
