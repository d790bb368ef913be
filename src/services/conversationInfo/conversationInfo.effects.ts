// The conversation info feature's effects: each group change is one request over the API client, and so is
// «История для новых участников».
import { fromPromise } from 'xstate';
import {
  type ConversationInfoEffects,
  conversationInfoMachine,
} from '../../machines/conversationInfo/conversationInfo/conversationInfo.machine';
import type { GroupAction } from '../../machines/conversationInfo/conversationInfo/conversationInfo.protocol';
import type { Services } from '../app/services';
import {
  type HistorySettingEffects,
  historySettingMachine,
} from '../../machines/conversationInfo/historySetting/historySetting.machine';

// «Медиа», «Файлы», «Ссылки», «Голосовые» come with the panel's other effects (one chunk, one loader line).
export { wireChatMedia } from './chatMedia.effects';

export function sendGroupAction(s: Services, conversationId: string, action: GroupAction) {
  switch (action.kind) {
    case 'add':
      return s.api.call('addMembers', { body: { conversationId, userIds: action.userIds } });
    case 'remove':
      return s.api.call('removeMember', { body: { conversationId, userId: action.userId } });
    case 'role':
      return s.api.call('memberRole', { body: { conversationId, userId: action.userId, role: action.role } });
    case 'rename':
      return s.api.call('updateConversation', { params: { id: conversationId }, body: { title: action.title } });
    case 'leave':
      return s.api.call('leaveConversation', { body: { conversationId } });
    case 'open':
      return s.api.call('updateConversation', { params: { id: conversationId }, body: { open: action.open } });
    case 'threads':
      return s.api.call('threadsSetting', { body: { conversationId, enabled: action.enabled } });
  }
}

export const wireConversationInfo = (s: Services) =>
  conversationInfoMachine.provide({
    actors: {
      groupAction: fromPromise<unknown, { conversationId: string; action: GroupAction }>(({ input }) =>
        sendGroupAction(s, input.conversationId, input.action),
      ),
    } satisfies ConversationInfoEffects,
  });

export const wireHistorySetting = (s: Services) =>
  historySettingMachine.provide({
    actors: {
      saveHistory: fromPromise<unknown, { conversationId: string; visible: boolean }>(({ input }) =>
        s.api.call('groupHistory', { body: { conversationId: input.conversationId, visible: input.visible } }),
      ),
    } satisfies HistorySettingEffects,
  });
