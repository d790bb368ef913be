// One's own user (server/users/): the profile, presence, «Кто может мне писать», and blocking.
// Each route's method and path are in ./users.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { DisplayName, Id, NUL_MESSAGE, noNul, PresenceStatus, PublicUser, User } from '../entities';
import { LIMITS } from '../limits';
import { MESSAGE_PRIVACY } from '../message-privacy';
import { usersRoutes } from './users.routes';
import { Ok, withSchemas } from './with-schemas';

/** An uploaded file (a same-origin path), an http(s) URL, or an emoji avatar in the text form emoji:<char>. */
export const AvatarUrl = z
  .string()
  .max(LIMITS.avatarUrlMax)
  .refine(
    (v) => /^emoji:.{1,16}$/u.test(v) || (/^\/[\w./-]+$/.test(v) && !v.includes('..')) || /^https?:\/\/[^\s]+$/.test(v),
    {
      message: 'Аватар: ссылка на загруженный файл, http(s)-адрес или emoji:<символ>',
    },
  );
export const MeResponse = z.object({ user: User });
export const PatchMeBody = z
  .strictObject({
    avatarUrl: AvatarUrl.nullable().optional(),
    displayName: DisplayName.optional(),
    bio: z
      .string()
      .trim()
      .max(LIMITS.bioMax, `О себе — не длиннее ${LIMITS.bioMax} символов`)
      .refine(noNul, NUL_MESSAGE)
      .nullable()
      .optional(),
    status: PresenceStatus.optional(),
    messagePrivacy: z
      .enum(MESSAGE_PRIVACY, 'Кто может мне писать: все, участники общих групп или только друзья')
      .optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Нечего изменять' });
export const BlockBody = z.strictObject({ userId: Id });
export const BlockedResponse = z.object({ users: z.array(PublicUser) });

/** The routes of ./users.routes with their schemas. */
export const usersApi = withSchemas(usersRoutes, {
  me: { response: MeResponse },
  patchMe: { body: PatchMeBody, response: MeResponse },
  blockUser: { body: BlockBody, response: Ok },
  unblockUser: { body: BlockBody, response: Ok },
  blockedUsers: { response: BlockedResponse },
});
