// What the features' wiring shares when it reads REST answers: the list check and the "no answer at all" test.

import { RequestFailure } from '../../contract/failure';
import { isRecord } from '../../contract/shape';

/**
 * Answers are not parsed against the contract here (that would put zod in the bundle): our server shapes them
 * with the contract's schemas (fast-json-stringify) and its tests check them. An answer without its list at all
 * (a proxy's error page, a misrouted request) is still a failed fetch, as a malformed answer always was: the
 * list or history stays as it was and the next fetch tries again, instead of state the page cannot draw.
 */
export function withList<T>(answer: T, key: string): T {
  if (!isRecord(answer) || !Array.isArray(answer[key])) throw new Error(`malformed answer: no ${key} list`);
  return answer;
}

/** No answer came (offline, timed out): not a refusal by the server. */
export const noAnswer = (err: unknown) => err instanceof RequestFailure && err.status === null;

/** The tab's socket id for a read, when connected (the server then skips this tab when it tells the reader's tabs). */
export const readerSocket = (socketId: string | undefined) => (socketId ? { socketId } : {});
