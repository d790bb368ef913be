// The tabs of one browser share one sign-in (localStorage `beseda.session`), and a refresh token is good for one use:
// a tab presenting a token another tab has already rotated is taken for a thief, and the whole sign-in ends
// (docs/behaviour.md §10.7) — for every tab, wiping what they keep. So refreshes take turns across the tabs (the Web
// Locks API), each turn stores its new tokens before passing on, and a tab whose turn comes after another's rotation
// takes the stored tokens instead of asking the server.
import type { ResponseOf } from '../../contract/api';
import type { Session } from '../../contract/entities';

type Tokens = ResponseOf<'refresh'>;

/** The lock the tabs of one origin take turns on. */
export const REFRESH_LOCK = 'beseda.refresh';

export interface SharedRefreshDeps {
  /** POST /api/auth/refresh. */
  refresh(refreshToken: string, signal?: AbortSignal): Promise<Tokens>;
  load(): Session | null;
  save(session: Session): void;
  /** The browser's `navigator.locks`; without it (an old browser) each tab refreshes on its own. */
  locks: Pick<LockManager, 'request'> | null;
}

/** A refresh of `userId`'s sign-in from `refreshToken`, in turn with the other tabs; `signal` gives up its turn too. */
export function refreshInTurn(deps: SharedRefreshDeps) {
  return (input: { userId: string; refreshToken: string }, signal?: AbortSignal): Promise<Tokens> => {
    const turn = async (): Promise<Tokens> => {
      const stored = deps.load();
      const shared = stored?.user.id === input.userId ? stored : null;
      // Another tab rotated the token while this one waited: its tokens are this tab's too.
      if (shared && shared.refreshToken !== input.refreshToken) {
        return { accessToken: shared.accessToken, refreshToken: shared.refreshToken };
      }
      const tokens = await deps.refresh(input.refreshToken, signal);
      // Stored before the turn passes on, so that the next tab in line finds them.
      if (shared) deps.save({ ...shared, ...tokens });
      return tokens;
    };
    // The lock's typing nests the callback's promise; it resolves the tokens themselves.
    return deps.locks
      ? (deps.locks.request(REFRESH_LOCK, signal ? { signal } : {}, turn) as unknown as Promise<Tokens>)
      : turn();
  };
}
