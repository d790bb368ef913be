// Typing notices, relayed at most once per TIMINGS.typingIdleMs (1.5 s) per typist and conversation however
// often a client sends them. The first notice goes at once; what arrives within the interval only records the
// typist's latest state, which is relayed when the interval ends if it differs from what the others were last
// told. A message from the typist ends its typing: clients clear a typer when its message arrives
// (src/machines/conversation/typing, 'typing.remoteSent'), so the typing-off that follows a send is not relayed at all.
// State is per server process (a typist's socket stays on one process).
import { TIMINGS } from '../../src/contract/limits';
import { type Clock, type ClockTimer, systemClock } from '../clock';

export interface TypingRelay {
  /** A client said it started or stopped typing. */
  typed(conversationId: string, userId: string, typing: boolean): void;
  /** The user's message to the conversation was published: the others stop showing it as typing. */
  sent(conversationId: string, userId: string): void;
  /** Forgets every pending notice (the server is closing). */
  close(): void;
}

interface State {
  /** What the others were last told (or learned from a message). */
  told: boolean;
  lastRelayAt: number;
  /** The latest state asked for while the interval runs. */
  wanted: boolean;
  timer: ClockTimer | null;
}

/** Typists remembered; the least recently active go first. */
const MAX_TYPISTS = 50_000;

export function createTypingRelay(
  relay: (conversationId: string, userId: string, typing: boolean) => void,
  options: { intervalMs?: number; clock?: Clock } = {},
): TypingRelay {
  const intervalMs = options.intervalMs ?? TIMINGS.typingIdleMs;
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const states = new Map<string, State>();
  const keyOf = (conversationId: string, userId: string) => `${conversationId}\u0000${userId}`;

  const tell = (conversationId: string, userId: string, s: State, typing: boolean) => {
    s.told = typing;
    s.lastRelayAt = now();
    relay(conversationId, userId, typing);
  };

  const remember = (key: string, s: State) => {
    states.delete(key);
    if (states.size >= MAX_TYPISTS) {
      const [oldKey, old] = states.entries().next().value as [string, State];
      if (old.timer) clock.clearTimeout(old.timer);
      states.delete(oldKey);
    }
    states.set(key, s);
  };

  return {
    typed(conversationId, userId, typing) {
      const key = keyOf(conversationId, userId);
      const s = states.get(key) ?? { told: false, lastRelayAt: Number.NEGATIVE_INFINITY, wanted: false, timer: null };
      remember(key, s);
      s.wanted = typing;
      if (s.timer) return;
      const wait = s.lastRelayAt + intervalMs - now();
      // A repeated typing-on past the interval is relayed again (a member who opened the conversation since
      // learns of it); a repeated typing-off never is.
      if (wait <= 0) {
        if (typing || s.told) tell(conversationId, userId, s, typing);
        return;
      }
      if (typing === s.told) return;
      s.timer = clock.setTimeout(() => {
        s.timer = null;
        if (s.wanted !== s.told) tell(conversationId, userId, s, s.wanted);
      }, wait);
    },
    sent(conversationId, userId) {
      const s = states.get(keyOf(conversationId, userId));
      if (!s) return;
      s.told = false;
      s.wanted = false;
    },
    close() {
      for (const s of states.values()) if (s.timer) clock.clearTimeout(s.timer);
      states.clear();
    },
  };
}
