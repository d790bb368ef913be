// What Fastify logs per request. At the default level it would write two info lines per request ('incoming
// request', 'request completed'), about a fifth of a send's CPU: below debug only errors are logged (a request
// that errored, a broken stream; 500s are also logged by the error handler). A per-route level of 'warn' did
// the same before, but rebuilt the request logger's methods on every request.
import { LogController } from 'fastify';

export class ErrorsOnlyRequestLog extends LogController {
  override incomingRequest(..._args: Parameters<LogController['incomingRequest']>): void {}
  override requestCompleted(...args: Parameters<LogController['requestCompleted']>): void {
    if (args[0]) super.requestCompleted(...args);
  }
}

/** Every request logged at debug and trace; errors only otherwise. */
export function requestLogFor(level: string): LogController | undefined {
  return level === 'debug' || level === 'trace' ? undefined : new ErrorsOnlyRequestLog();
}
