// The public face of the conversation info feature («Информация»): other features import only this module,
// ui/index.ts (its views) and its *.protocol.ts files.
export { conversationInfoMachine } from './conversationInfo/conversationInfo.machine';
