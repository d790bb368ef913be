// A poll's rules shared by the client's history, its cards and the server's tests (docs/behaviour.md §10.33 Polls):
// plain TypeScript, no zod.
import type { PollInfo } from './entities';

/**
 * The poll after an update: an older version is ignored; an update for everyone (no `mine`) keeps the viewer's own
 * choice, and a quiz's answer once it was shown stays shown.
 */
export function mergePoll(current: PollInfo | null | undefined, incoming: PollInfo): PollInfo {
  if (!current) return incoming;
  if (incoming.version < current.version) return current;
  return {
    ...incoming,
    mine: incoming.mine ?? current.mine,
    ...(incoming.quiz
      ? {
          correctOptionId: incoming.correctOptionId ?? current.correctOptionId ?? null,
          explanation: incoming.explanation ?? current.explanation ?? null,
        }
      : {}),
  };
}

/** «📊 Опрос: <question>», in the chat list and in notifications. */
export const pollPreview = (question: string) => `📊 Опрос: ${question}`;

/** An option's share of the people who voted, in whole percent (0 when nobody voted). */
export const pollPercent = (votes: number, voterCount: number) =>
  voterCount > 0 ? Math.round((votes * 100) / voterCount) : 0;
