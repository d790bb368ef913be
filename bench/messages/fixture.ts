// What the benchmark asks a server child to create, what the child hands back, and the IPC messages
// between the runner and the two server children (the app and the floor speak the same IPC).
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface SeedSpec {
  /** Direct conversations of two users each (one sends, the other receives). */
  pairs: number;
  /** Group conversations of `groupSize` members. */
  groups: number;
  groupSize: number;
  /** Sizes of the groups, one each, instead of `groups` × `groupSize` (bench/groups). */
  groupSizes?: number[];
  /** One user with this many conversations, for GET /api/conversations. */
  listConversations: number;
  /** Messages per conversation of that user (half of them read). */
  listMessagesEach: number;
  /** Users with no conversation, for the idle-socket memory figure. */
  idleUsers: number;
}

export interface BenchUser {
  id: string;
  token: string;
}

export interface Fixture {
  pairs: { conversationId: string; a: BenchUser; b: BenchUser }[];
  groups: { conversationId: string; members: BenchUser[] }[];
  listUser: BenchUser;
  /** The app only: one of listUser's conversations. */
  listConversationId?: string;
  idle: BenchUser[];
  /** The app only: two conversations of one reader with 50 messages each, every message of `reacted` with 3 reactions. */
  history?: { reader: BenchUser; plain: string; reacted: string; actions: string };
}

export type Request =
  | { id: number; type: 'seed'; spec: SeedSpec }
  | { id: number; type: 'cpu' }
  /** The event loop's delay since the last such request (which restarts it), in ms. */
  | { id: number; type: 'loop' }
  /** Database statements run so far (0 on the floor, which stores nothing). */
  | { id: number; type: 'statements' }
  | { id: number; type: 'memory' }
  /** The floor only: serve `body` at GET /list-copy (the app's own list answer, as a serialization ceiling). */
  | { id: number; type: 'list-copy'; body: unknown }
  /**
   * The app only: how many users' lists its cache keeps (0 = every request builds the list); with `changeEach`,
   * a change inside that conversation of the user's is announced before every list request (the list is patched).
   */
  | { id: number; type: 'list-cache'; entries: number; changeEach?: { userId: string; conversationId: string } | null }
  | { id: number; type: 'stop' };

export type Reply =
  | { id: number; type: 'seed'; fixture: Fixture }
  | { id: number; type: 'cpu'; micros: number }
  | { id: number; type: 'loop'; p50: number; p99: number; max: number }
  | { id: number; type: 'statements'; count: number }
  | { id: number; type: 'memory'; rss: number; heap: number }
  | { id: number; type: 'list-copy' }
  | { id: number; type: 'list-cache' }
  | { id: number; type: 'stop' };

/** The group sizes a spec asks for. */
export const groupSizesOf = (spec: SeedSpec): number[] =>
  spec.groupSizes ?? Array.from({ length: spec.groups }, () => spec.groupSize);

/** First message of a child: the port it listens on. */
export interface Ready {
  type: 'ready';
  port: number;
}

/**
 * The child side of the IPC: answers the runner's requests. Memory is read after two full collections so
 * the figure is what live objects hold, not garbage waiting for the next GC.
 */
export function answerRunner(
  port: number,
  seed: (spec: SeedSpec) => Promise<Fixture>,
  stop: () => Promise<void>,
  listCopy?: (body: unknown) => void,
  listCache?: (entries: number, changeEach: { userId: string; conversationId: string } | null) => void,
  statements: () => number = () => 0,
): void {
  const send = (m: Reply | Ready) => process.send?.(m);
  // How long callbacks waited for the loop: a send waiting behind a long synchronous task shows here first.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  process.on('message', async (req: Request) => {
    if (req.type === 'loop') {
      const ms = (ns: number) => ns / 1e6;
      send({ id: req.id, type: 'loop', p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) });
      loop.reset();
    }
    if (req.type === 'seed') send({ id: req.id, type: 'seed', fixture: await seed(req.spec) });
    if (req.type === 'cpu') {
      const u = process.cpuUsage();
      send({ id: req.id, type: 'cpu', micros: u.user + u.system });
    }
    if (req.type === 'statements') send({ id: req.id, type: 'statements', count: statements() });
    if (req.type === 'memory') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      await new Promise((r) => setTimeout(r, 100));
      gc?.();
      const m = process.memoryUsage();
      send({ id: req.id, type: 'memory', rss: m.rss, heap: m.heapUsed + m.external });
    }
    if (req.type === 'list-copy') {
      listCopy?.(req.body);
      send({ id: req.id, type: 'list-copy' });
    }
    if (req.type === 'list-cache') {
      listCache?.(req.entries, req.changeEach ?? null);
      send({ id: req.id, type: 'list-cache' });
    }
    if (req.type === 'stop') {
      await stop();
      send({ id: req.id, type: 'stop' });
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}
