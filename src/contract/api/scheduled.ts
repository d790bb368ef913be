// «Отправить позже» and «Напомнить» (server/scheduled/, docs/behaviour.md §10.32): the server sends them at
// their time.
// Each route's method and path are in ./scheduled.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id, IsoDate, Message, NUL_MESSAGE, noNul } from '../entities';
import { LIMITS } from '../limits';
import { scheduledRoutes } from './scheduled.routes';
import { Ok, withSchemas } from './with-schemas';

// «Отправить позже» and «Напомнить» (docs/behaviour.md §10.32): the server sends them at their time.
/** An ISO time a client gives for a scheduled send (the server checks it is ahead and within SCHEDULE.maxAheadMs). */
export const ScheduleTime = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), 'Укажите дату и время');
export const ScheduledKind = z.enum(['message', 'reminder']);
export const ScheduledItem = z.object({
  id: Id,
  kind: ScheduledKind,
  conversationId: Id,
  /** A message's text, or what a reminder will quote. */
  content: z.string(),
  sendAt: IsoDate,
  /** 'failed': the time came and it could not go (`failure` says why); sent ones leave the list. */
  status: z.enum(['pending', 'failed']),
  failure: z.string().nullable(),
  /** A reminder's message. */
  sourceMessageId: Id.nullable(),
  createdAt: IsoDate,
});
export type ScheduledItem = z.infer<typeof ScheduledItem>;
const ScheduledText = z
  .string()
  .max(LIMITS.messageTextMax, `Сообщение — не длиннее ${LIMITS.messageTextMax} символов`)
  .refine(noNul, NUL_MESSAGE)
  .refine((s) => s.trim().length > 0, 'Сообщение не может быть пустым');
export const ScheduleBody = z.strictObject({ conversationId: Id, content: ScheduledText, sendAt: ScheduleTime });
export const EditScheduledBody = z.strictObject({ content: ScheduledText.optional(), sendAt: ScheduleTime.optional() });
export const ScheduledParams = z.strictObject({ id: Id });
export const ScheduledResponse = z.object({ item: ScheduledItem });
export const ScheduledListResponse = z.object({ items: z.array(ScheduledItem) });
export const SendScheduledNowResponse = z.object({ message: Message });
export const RemindBody = z.strictObject({ messageId: Id, remindAt: ScheduleTime });

/** The routes of ./scheduled.routes with their schemas. */
export const scheduledApi = withSchemas(scheduledRoutes, {
  scheduled: { params: ScheduledParams, response: ScheduledListResponse },
  schedule: { body: ScheduleBody, response: ScheduledResponse },
  editScheduled: { params: ScheduledParams, body: EditScheduledBody, response: ScheduledResponse },
  sendScheduledNow: { params: ScheduledParams, response: SendScheduledNowResponse },
  deleteScheduled: { params: ScheduledParams, response: Ok },
  remind: { body: RemindBody, response: ScheduledResponse },
});
