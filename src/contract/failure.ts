// How a failed request reaches the machines: one domain failure, whatever the transport (HTTP answer, upload,
// socket acknowledgement). Services turn their raw errors into it at the boundary (src/services/app/api.ts), so a
// machine reads the server's Russian message and the status without knowing which HTTP library ran.

export class RequestFailure extends Error {
  /** The HTTP status, or null when no answer came (offline, aborted, timed out). */
  readonly status: number | null;
  /** The server's `{ message }` (Russian, for the user), or null when it sent none. */
  readonly serverMessage: string | null;

  constructor(status: number | null, serverMessage: string | null) {
    super(serverMessage ?? (status === null ? 'no answer' : `HTTP ${status}`));
    this.name = 'RequestFailure';
    this.status = status;
    this.serverMessage = serverMessage;
  }

  /**
   * The server refused the request itself (a 4xx other than 401, 408 and 429): sending it again unchanged cannot
   * help. Anything else (offline, timeouts, 5xx, an expired session, a rate limit) may succeed later.
   */
  get refused(): boolean {
    const s = this.status;
    return s !== null && s >= 400 && s < 500 && s !== 401 && s !== 408 && s !== 429;
  }
}

/** Any rejection as a failure: a RequestFailure as it is, anything else as "no answer". */
export function failureOf(error: unknown): RequestFailure {
  return error instanceof RequestFailure ? error : new RequestFailure(null, null);
}

/** The server's message for the user, or the caller's fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  return failureOf(error).serverMessage ?? fallback;
}
