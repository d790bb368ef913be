// Secret chats (docs/secret-chats.md): this browser as a device (secretDevice), one lifecycle actor per secret chat
// (secretChat) and the creation dialog (secretDialog). All of it loads on demand (src/core/app/registry.ts); the
// crypto service (crypto/secret-crypto.ts) is for the wiring, and ts-mls loads only in its worker.
export { secretChatMachine } from './machines/secretChat/secretChat.machine';
export { secretDeviceMachine } from './machines/secretDevice/secretDevice.machine';
export { secretDialogMachine } from './machines/secretDialog/secretDialog.machine';
export { secretCallMachine } from './machines/secretCall/secretCall.machine';
export * from './machines/secretChat/secretChat.protocol';
export * from './machines/secretDevice/secretDevice.protocol';
export * from './machines/secretDialog/secretDialog.protocol';
export * from './machines/secretCall/secretCall.protocol';
export { secretVerifyMachine } from './machines/secretVerify/secretVerify.machine';
export * from './machines/secretVerify/secretVerify.protocol';
export { sendSecretMessage } from './send-secret';
export { uploadSecretFile } from './secret-files';
