// The public face of the conversation info feature («Информация»): other features import only this module,
// src/ui/conversationInfo/index.ts (its views) and its *.protocol.ts files.

export { chatMediaMachine } from './chatMedia/chatMedia.machine';
export { conversationInfoMachine } from './conversationInfo/conversationInfo.machine';
export { historySettingMachine } from './historySetting/historySetting.machine';
