// The tokenizer and stemmer live in the contract (src/contract/morphology.ts): the server's index and the
// browser's local index of secret chats read words the same way.
export * from '../../src/contract/morphology';
