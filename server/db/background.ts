// A statement that background upkeep runs (not a request) starts with this comment: queryCount
// (server/db/database.ts), which tests use to prove a request's query count, leaves it out.
export const BACKGROUND_STATEMENT = '/* background */';
