// Polls and quizzes (server/polls/): each route's name, method and path, without zod
// (src/contract/routes.ts joins them: the browser's table); their schemas are in ./polls.ts.
import type { RouteTable } from './route-info';

export const pollsRoutes = {
  createPoll: { method: 'POST', path: '/polls', auth: true },
  votePoll: { method: 'POST', path: '/polls/vote', auth: true },
  retractVote: { method: 'POST', path: '/polls/retract', auth: true },
  closePoll: { method: 'POST', path: '/polls/close', auth: true },
} as const satisfies RouteTable;
