// The conversation info feature's effects: each group change is one request over the API client.
import { fromPromise } from 'xstate';
import type { Services } from '../services';
import { conversationInfoMachine } from '../../conversationInfo/conversationInfo/conversationInfo.machine';
import type { GroupAction } from '../../conversationInfo/conversationInfo/conversationInfo.protocol';

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
    },
  });
