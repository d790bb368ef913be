// Secret chats (docs/secret-chats.md): the per-conversation lifecycle actor. The crypto service
// (crypto/secret-crypto.ts) is for the wiring; ts-mls loads only in its worker.
export { secretChatMachine } from './machines/secretChat/secretChat.machine';
export * from './machines/secretChat/secretChat.protocol';
