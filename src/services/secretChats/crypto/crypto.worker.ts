// The crypto worker: the MLS engine and the store of secret chats, answering secret-crypto.ts's requests. The only
// module of the client that loads ts-mls.
import { createSecretCryptoCore, serveSecretCrypto } from './secret-crypto-core';
import { createSecretStore } from './secret-store';

declare const self: {
  addEventListener(t: 'message', l: (e: { data: never }) => void): void;
  postMessage(m: unknown): void;
};

serveSecretCrypto(createSecretCryptoCore(createSecretStore()), self);
