// One's own user (server/users/): the profile, presence, «Кто может мне писать», and blocking.
// Each route's method and path are in ./users.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { CLEAR_AFTER, CUSTOM_STATUS_TEXT_MAX } from '../custom-status';
import { isSingleEmoji } from '../emoji';
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
/** «Статус»: one emoji or none, a text of at most 80 characters, and «Сбросить через» from the list only. */
export const CustomStatusBody = z
  .strictObject({
    emoji: z
      .string({ error: 'Эмодзи — одна строка' })
      .refine((v) => v === '' || isSingleEmoji(v), { message: 'Эмодзи статуса — один эмодзи или ничего' }),
    text: z
      .string({ error: 'Текст статуса — строка' })
      .trim()
      .max(CUSTOM_STATUS_TEXT_MAX, `Текст статуса — не длиннее ${CUSTOM_STATUS_TEXT_MAX} символов`)
      .refine(noNul, NUL_MESSAGE),
    clearAfter: z.enum(CLEAR_AFTER, { error: 'Выберите, когда сбросить статус, из списка' }),
    /** Date#getTimezoneOffset() of the browser, for «Сегодня» (minutes; UTC when absent). */
    timezoneOffset: z
      .number({ error: 'Часовой пояс — число минут' })
      .int('Часовой пояс — число минут')
      .min(-840, 'Часовой пояс указан неверно')
      .max(840, 'Часовой пояс указан неверно')
      .optional(),
  })
  .refine((b) => b.emoji !== '' || b.text !== '', { message: 'Укажите эмодзи или текст статуса' });
export const BlockBody = z.strictObject({ userId: Id });
export const BlockedResponse = z.object({ users: z.array(PublicUser) });

/** The routes of ./users.routes with their schemas. */
export const usersApi = withSchemas(usersRoutes, {
  me: { response: MeResponse },
  patchMe: { body: PatchMeBody, response: MeResponse },
  setCustomStatus: { body: CustomStatusBody, response: MeResponse },
  clearCustomStatus: { response: MeResponse },
  blockUser: { body: BlockBody, response: Ok },
  unblockUser: { body: BlockBody, response: Ok },
  blockedUsers: { response: BlockedResponse },
});
