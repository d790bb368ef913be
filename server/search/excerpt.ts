// The snippet of a result is built by the contract's code (src/contract/excerpt.ts), shared with the browser's local
// search of secret chats, so both mark the same words.
export * from '../../src/contract/excerpt';
