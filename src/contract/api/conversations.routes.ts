// Conversations (server/conversations/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./conversations.ts.
import type { RouteTable } from './route-info';

export const conversationsRoutes = {
  conversations: { method: 'GET', path: '/conversations', auth: true },
  createConversation: { method: 'POST', path: '/conversations', auth: true },
  conversationWith: { method: 'POST', path: '/conversations/with', auth: true },
  createInvite: { method: 'POST', path: '/conversations/invites', auth: true },
  groupInvites: { method: 'GET', path: '/conversations/:id/invites', auth: true },
  revokeInvite: { method: 'POST', path: '/conversations/invites/revoke', auth: true },
  invitePreview: { method: 'GET', path: '/invites/:code', auth: true },
  joinByInvite: { method: 'POST', path: '/invites/:code/join', auth: true },
  joinOpenGroup: { method: 'POST', path: '/groups/:id/join', auth: true },
  chatSettings: { method: 'PATCH', path: '/conversations/:id/settings', auth: true },
  clearHistory: { method: 'POST', path: '/conversations/clear', auth: true },
  hideConversation: { method: 'POST', path: '/conversations/hide', auth: true },
  addMembers: { method: 'POST', path: '/conversations/members/add', auth: true },
  removeMember: { method: 'POST', path: '/conversations/members/remove', auth: true },
  memberRole: { method: 'POST', path: '/conversations/members/role', auth: true },
  leaveConversation: { method: 'POST', path: '/conversations/leave', auth: true },
  updateConversation: { method: 'PATCH', path: '/conversations/:id', auth: true },
  groupHistory: { method: 'POST', path: '/conversations/history', auth: true },
} as const satisfies RouteTable;
