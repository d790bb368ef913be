// Conversations (server/conversations/): the list, new chats, members and roles, invite links, open groups,
// one's own chat settings, clearing and hiding.
// Each route's method and path are in ./conversations.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import {
  ChatSettings,
  Conversation,
  ConversationEntry,
  Id,
  IsoDate,
  NUL_MESSAGE,
  noNul,
  ParticipantRole,
} from '../entities';
import { LIMITS } from '../limits';
import { conversationsRoutes } from './conversations.routes';
import { AvatarUrl } from './users';
import { Ok, withSchemas } from './with-schemas';

export const ConversationsResponse = z.object({ conversations: z.array(ConversationEntry) });
export const CreateConversationBody = z.strictObject({
  participantIds: z.array(Id).min(1, 'Выберите участников').max(LIMITS.groupParticipantsMax),
  title: z
    .string()
    .trim()
    .max(LIMITS.groupTitleMax, `Название — не длиннее ${LIMITS.groupTitleMax} символов`)
    .refine(noNul, NUL_MESSAGE)
    .nullable()
    .optional(),
  isGroup: z.boolean().optional(),
});
export const ConversationResponse = z.object({ conversation: Conversation });
export const ConversationWithBody = z.strictObject({ userId: Id });
/** A group's invite link as its owner and admins see it. */
export const GroupInvite = z.object({
  code: z.string(),
  createdAt: IsoDate,
  expiresAt: IsoDate.nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
});
export const CreateInviteBody = z.strictObject({
  conversationId: Id,
  expiresAt: IsoDate.max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), 'expiresAt: время в ISO 8601')
    .refine((v) => Date.parse(v) > Date.now(), 'Срок действия уже прошёл')
    .nullable()
    .optional(),
  maxUses: z.number().int().min(1, 'Число вступлений — от 1').max(100_000).nullable().optional(),
});
export const InviteResponse = z.object({ invite: GroupInvite });
export const InvitesResponse = z.object({ invites: z.array(GroupInvite) });
export const InviteCodeParams = z.strictObject({
  code: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[\w-]+$/, 'Неверная ссылка-приглашение'),
});
export const RevokeInviteBody = z.strictObject({ code: InviteCodeParams.shape.code });
/** What a person opening a link sees before joining. */
export const InvitePreviewResponse = z.object({
  conversationId: Id,
  title: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  memberCount: z.number().int(),
  /** Already a member: «Открыть» instead of «Вступить». */
  member: z.boolean(),
});
export const MUTE_FOREVER = 'forever';
/** «Без звука» for a time, 'forever', or null to turn the sound back on; pin, archive and the unread mark. */
export const ChatSettingsBody = z
  .strictObject({
    mutedUntil: z
      .union([
        z.literal(MUTE_FOREVER),
        z
          .string()
          .max(40)
          .refine((v) => !Number.isNaN(Date.parse(v)), 'mutedUntil: время в ISO 8601, forever или null'),
      ])
      .nullable()
      .optional(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
    /** «Пометить как непрочитанное» (true) or «Пометить как прочитанное» (false). */
    markedUnread: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Нечего менять');
export const ChatSettingsResponse = z.object({ settings: ChatSettings });
export const ConversationRefBody = z.strictObject({ conversationId: Id });
/** Friends to add to a group (owner or admins; each must be the actor's friend). */
export const AddMembersBody = z.strictObject({
  conversationId: Id,
  userIds: z.array(Id).min(1, 'Выберите участников').max(LIMITS.groupParticipantsMax),
});
export const RemoveMemberBody = z.strictObject({ conversationId: Id, userId: Id });
/** OWNER, given by the owner, hands ownership over (the owner becomes an ADMIN). */
export const MemberRoleBody = z.strictObject({ conversationId: Id, userId: Id, role: ParticipantRole });
export const LeaveConversationBody = z.strictObject({ conversationId: Id });
export const GroupTitle = z
  .string()
  .trim()
  .min(1, 'Введите название')
  .max(LIMITS.groupTitleMax, `Название — не длиннее ${LIMITS.groupTitleMax} символов`)
  .refine(noNul, NUL_MESSAGE);
/** A group's title and picture (owner or admins); null clears the picture. */
export const UpdateConversationBody = z
  .strictObject({
    title: GroupTitle.optional(),
    avatarUrl: AvatarUrl.nullable().optional(),
    /** «Открытая» (true) or invitation-only (docs/behaviour.md §10.25). */
    open: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Нечего менять');
/** «История для новых участников» of a group (owner or admins): «Видна» (true) or «Скрыта» (false). */
export const GroupHistoryBody = z.strictObject({ conversationId: Id, visible: z.boolean() });
/** What a membership change leaves: the conversation as the actor now sees it, or null once they left it. */
export const MembershipResponse = z.object({ conversation: Conversation.nullable() });
export const ConversationParams = z.strictObject({ id: Id });

/** The routes of ./conversations.routes with their schemas. */
export const conversationsApi = withSchemas(conversationsRoutes, {
  conversations: { response: ConversationsResponse },
  createConversation: { body: CreateConversationBody, response: ConversationResponse },
  conversationWith: { body: ConversationWithBody, response: ConversationResponse },
  createInvite: { body: CreateInviteBody, response: InviteResponse },
  groupInvites: { params: ConversationParams, response: InvitesResponse },
  revokeInvite: { body: RevokeInviteBody, response: Ok },
  invitePreview: { params: InviteCodeParams, response: InvitePreviewResponse },
  joinByInvite: { params: InviteCodeParams, response: ConversationResponse },
  joinOpenGroup: { params: ConversationParams, response: ConversationResponse },
  chatSettings: { params: ConversationParams, body: ChatSettingsBody, response: ChatSettingsResponse },
  clearHistory: { body: ConversationRefBody, response: Ok },
  hideConversation: { body: ConversationRefBody, response: Ok },
  addMembers: { body: AddMembersBody, response: MembershipResponse },
  removeMember: { body: RemoveMemberBody, response: MembershipResponse },
  memberRole: { body: MemberRoleBody, response: MembershipResponse },
  leaveConversation: { body: LeaveConversationBody, response: MembershipResponse },
  updateConversation: { params: ConversationParams, body: UpdateConversationBody, response: MembershipResponse },
  groupHistory: { body: GroupHistoryBody, response: MembershipResponse },
});
