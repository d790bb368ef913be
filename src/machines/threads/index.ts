// The public face of the threads feature («Обсуждения»): other features import only this module, src/ui/threads/index.ts
// (its views) and its *.protocol.ts files.
export { followedThreadsMachine } from './followedThreads/followedThreads.machine';
export { threadPanelMachine } from './threadPanel/threadPanel.machine';
