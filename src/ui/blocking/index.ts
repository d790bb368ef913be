// The views of the blocking feature that other features render.
export { BlockedUsers, BlockedUsersSection } from './BlockedUsers';
export { type BlockingView, useBlocking } from './useBlocking';
