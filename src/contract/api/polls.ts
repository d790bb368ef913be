// Polls and quizzes (server/polls/).
// Each route's method and path are in ./polls.routes.ts; its schemas are joined to it here, by the same name.
import { z } from 'zod';
import { Id, NewPoll, PollInfo } from '../entities';
import { POLL } from '../limits';
import { MessageResponse } from './messages';
import { pollsRoutes } from './polls.routes';
import { withSchemas } from './with-schemas';

/** A poll's vote: the options chosen (one unless it is multiple choice); retracting and closing name the poll. */
export const PollVoteBody = z.strictObject({
  messageId: Id,
  optionIds: z
    .array(z.string().max(8))
    .min(1, 'Выберите вариант ответа')
    .max(POLL.optionsMax, `Вариантов ответа — не больше ${POLL.optionsMax}`),
});
export const PollBody = z.strictObject({ messageId: Id });
export const PollResponse = z.object({ conversationId: Id, messageId: Id, poll: PollInfo });

/** The routes of ./polls.routes with their schemas. */
export const pollsApi = withSchemas(pollsRoutes, {
  createPoll: { body: NewPoll, response: MessageResponse },
  votePoll: { body: PollVoteBody, response: PollResponse },
  retractVote: { body: PollBody, response: PollResponse },
  closePoll: { body: PollBody, response: PollResponse },
});
