// The polls feature's views («Опрос», docs/behaviour.md §10.33 Polls).
export { PollCard, PollSlot } from './PollCard';
export { PollComposerSection } from './PollComposerDialog';
export { PollCardsContext, usePollVotes } from './usePollVotes';
export type { PollRowView } from './poll-card-view';
