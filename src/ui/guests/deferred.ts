// The guests feature's views for code that loads after the first paint («Информация» in the conversation pane, the
// /calls page's room). Apart from ui/index.ts on purpose: a module re-exported by an index the first bundle loads
// (here for the guest page's route and the call's door) is bundled with it.
export { CallLinksSection } from './CallLinks';
