// The public face of the polls feature («Опрос»): other features import only this module, src/ui/polls/index.ts
// (its views) and its *.protocol.ts files.
export { pollComposerMachine } from './pollComposer/pollComposer.machine';
export { pollVotesMachine } from './pollVotes/pollVotes.machine';
