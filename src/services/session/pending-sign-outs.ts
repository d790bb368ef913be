// The refresh tokens of sign-outs that did not reach the server (made offline), kept in localStorage until the
// server revokes them (signOutQueue). Only the token: enough to end that sign-in, nothing of the user's data.
const KEY = 'beseda.pendingSignOut';
/** More than this many offline sign-outs in a row: the oldest are given up (they expire on the server anyway). */
const MAX = 10;

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export interface PendingSignOuts {
  load(): string[];
  add(token: string): void;
  remove(token: string): void;
}

const read = (): string[] => {
  try {
    const v = JSON.parse(store()?.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

const write = (tokens: string[]) => {
  try {
    if (tokens.length) store()?.setItem(KEY, JSON.stringify(tokens.slice(-MAX)));
    else store()?.removeItem(KEY);
  } catch {
    /* storage refused: the sign-in then ends on the server when its refresh token expires */
  }
};

export const localPendingSignOuts: PendingSignOuts = {
  load: read,
  add: (token) => write([...read().filter((t) => t !== token), token]),
  remove: (token) => write(read().filter((t) => t !== token)),
};
