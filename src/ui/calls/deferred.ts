// The calls feature's views for code that loads after the first paint (the guest link's page). Apart from
// ui/index.ts on purpose: a module re-exported by an index the first bundle loads is bundled with it, and the
// conference's loader would stop being a chunk of its own.
export { LazyConference } from './LazyConference';
/** What an encrypted call says (a plain string, from the livekit-free rules). */
export { CALL_ENCRYPTED } from './conference-rules';
/** A group's call bar in the conversation's header (the pane's chunk). */
export { GroupCallBar, useGroupCallBar } from './GroupCallBar';
