// Secret chats (docs/secret-chats.md): this browser as a device (secretDevice), one lifecycle actor per secret chat
// (secretChat) and the creation dialog (secretDialog). All of it loads on demand (src/machines/app/registry.ts); the
// crypto service (crypto/secret-crypto.ts) is for the wiring, and ts-mls loads only in its worker.
export { secretChatMachine } from './secretChat/secretChat.machine';
export { secretDeviceMachine } from './secretDevice/secretDevice.machine';
export { secretDialogMachine } from './secretDialog/secretDialog.machine';
export { secretCallMachine } from './secretCall/secretCall.machine';
export * from './secretChat/secretChat.protocol';
export * from './secretDevice/secretDevice.protocol';
export * from './secretDialog/secretDialog.protocol';
export * from './secretCall/secretCall.protocol';
export { secretVerifyMachine } from './secretVerify/secretVerify.machine';
export * from './secretVerify/secretVerify.protocol';
