// A poll as one member sees it (docs/behaviour.md §10.33 Polls): counts for everyone, who chose what only when the
// poll is not anonymous, the viewer's own choice, and a quiz's right answer and explanation once the viewer voted or
// the poll closed. Nothing here names a voter of an anonymous poll, whoever asks.
import type { PollInfo } from '../../src/contract/entities';
import type { Database } from '../db/database';
import type { PollsTable } from '../db/schema';

type PollRow = Omit<PollsTable, 'version'> & { version: number };
type Vote = { message_id: string; user_id: string; option: number };
type Reader = Pick<Database, 'selectFrom'>;

/** For whom the view is built: a member (their `mine`), or everyone else hearing an update (no `mine`). */
export type Viewer = { userId: string } | 'others';

export function pollView(question: string, poll: PollRow, votes: readonly Vote[], viewer: Viewer): PollInfo {
  const texts = JSON.parse(poll.options) as string[];
  const anonymous = Number(poll.anonymous) === 1;
  const closed = poll.closed_at !== null;
  const quiz = poll.correct_option !== null;
  const voters = new Set(votes.map((v) => v.user_id));
  const mine =
    viewer === 'others' ? undefined : votes.filter((v) => v.user_id === viewer.userId).map((v) => String(v.option));
  const revealed = quiz && (closed || (mine?.length ?? 0) > 0);
  return {
    question,
    options: texts.map((text, i) => {
      const chosen = votes.filter((v) => Number(v.option) === i);
      return {
        id: String(i),
        text,
        votes: chosen.length,
        ...(anonymous ? {} : { voters: chosen.map((v) => v.user_id) }),
      };
    }),
    multiple: Number(poll.multiple) === 1,
    anonymous,
    quiz,
    closed,
    voterCount: voters.size,
    version: Number(poll.version),
    ...(mine ? { mine } : {}),
    ...(quiz
      ? {
          correctOptionId: revealed ? String(poll.correct_option) : null,
          explanation: revealed ? poll.explanation : null,
        }
      : {}),
  };
}

/** The votes of these polls, in the order people voted, so «Кто голосовал» lists them as they came. */
export function votesOf(db: Reader, messageIds: readonly string[]): Promise<Vote[]> {
  return db
    .selectFrom('poll_votes as v')
    .innerJoin('poll_ballots as b', (j) =>
      j.onRef('b.message_id', '=', 'v.message_id').onRef('b.user_id', '=', 'v.user_id'),
    )
    .select(['v.message_id', 'v.user_id', 'v.option'])
    .where('v.message_id', 'in', messageIds)
    .orderBy('b.voted_at')
    .orderBy('v.user_id')
    .execute();
}

/** The polls of these POLL messages as `viewer` sees them, by message id (two queries for any number). */
export async function pollsOf(
  db: Reader,
  messages: readonly { id: string; content: string }[],
  viewer: Viewer,
): Promise<Map<string, PollInfo>> {
  if (!messages.length) return new Map();
  const ids = messages.map((m) => m.id);
  const [polls, votes] = await Promise.all([
    db.selectFrom('polls').selectAll().where('message_id', 'in', ids).execute(),
    votesOf(db, ids),
  ]);
  const question = new Map(messages.map((m) => [m.id, m.content]));
  return new Map(
    polls.map((p) => [
      p.message_id,
      pollView(
        question.get(p.message_id) ?? '',
        { ...p, version: Number(p.version) },
        votes.filter((v) => v.message_id === p.message_id),
        viewer,
      ),
    ]),
  );
}
