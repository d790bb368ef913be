// What a poll card shows (pure, tested in poll-card.test.tsx): each option's share, count and marks, the number of
// votes in Russian, and what the viewer may do now (docs/behaviour.md §10.33 Polls).
import type { PollInfo } from '../../contract/entities';
import { pollPercent } from '../../contract/poll';

/** A poll row of the timeline: as the server last said, who may close it, the names of those who voted. */
export interface PollRowView {
  info: PollInfo;
  canClose: boolean;
  names: Record<string, string>;
}

/** «1 голос», «3 голоса», «5 голосов», «21 голос». */
export function votesText(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} голос`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return `${n} голоса`;
  return `${n} голосов`;
}

export interface PollOptionView {
  id: string;
  text: string;
  votes: number;
  percent: number;
  mine: boolean;
  /** A quiz's right option, once shown to the viewer. */
  correct: boolean;
  voters: string[];
}

export function pollCardView(info: PollInfo, names: Record<string, string>) {
  const mine = info.mine ?? [];
  const voted = mine.length > 0;
  return {
    kind: info.quiz ? 'Викторина' : info.anonymous ? 'Анонимный опрос' : 'Открытый опрос',
    voted,
    /** The options are buttons (single) or boxes (multiple) while one may vote. */
    canVote: !info.closed && !voted,
    canRetract: !info.closed && voted && !info.quiz,
    total: votesText(info.voterCount),
    options: info.options.map(
      (o): PollOptionView => ({
        id: o.id,
        text: o.text,
        votes: o.votes,
        percent: pollPercent(o.votes, info.voterCount),
        mine: mine.includes(o.id),
        correct: info.correctOptionId === o.id,
        voters: (o.voters ?? []).map((id) => names[id] ?? 'Участник'),
      }),
    ),
  };
}
