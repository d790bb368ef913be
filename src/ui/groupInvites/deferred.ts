// The group invites feature's views for code that loads after the first paint («Информация» in the conversation
// pane). Apart from ui/index.ts on purpose: a module re-exported by an index the first bundle loads (here for the
// invite page's route) is bundled with it.
export { InviteLinksSection } from './InviteLinks';
