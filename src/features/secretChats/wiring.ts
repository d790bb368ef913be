// The secret chats' actors provided from the services (docs/secret-chats.md "The client"): the effects over the
// REST API and the crypto worker (made on first use, crypto/worker-client.ts). This module loads with the device
// actor or the creation dialog, never with the first bundle.
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../../core/app/services';
import { secretCrypto } from './crypto/worker-client';
import { secretChatMachine } from './machines/secretChat/secretChat.machine';
import type { Incoming, Outgoing } from './machines/secretChat/secretChat.protocol';
import { secretDeviceMachine, type WatchInput } from './machines/secretDevice/secretDevice.machine';
import type { SecretDeviceEvent } from './machines/secretDevice/secretDevice.protocol';
import { type CreateResult, secretDialogMachine } from './machines/secretDialog/secretDialog.machine';
import type { SecretVerification, SecretVerifyInput } from './machines/secretVerify/secretVerify.protocol';
import { secretVerifyMachine } from './machines/secretVerify/secretVerify.machine';
import { createSecretEffects, NoDeviceError, type SecretEffects, type Where } from './secret-effects';

let shared: { api: Services['api']; effects: SecretEffects } | null = null;

/** One set of effects per page (the device's registration is shared by the device actor and the dialog). */
export function secretEffects(s: Services): SecretEffects {
  if (!shared || shared.api !== s.api) shared = { api: s.api, effects: createSecretEffects(s.api, secretCrypto) };
  return shared.effects;
}

export function wireSecretChat(s: Services) {
  const fx = secretEffects(s);
  return secretChatMachine.provide({
    actors: {
      register: fromPromise(({ input }: { input: { userId: string } }) => fx.device(input.userId)),
      catchUp: fromPromise(({ input }: { input: Where & { after: number } }) => fx.catchUp(input)),
      commit: fromPromise(({ input }: { input: Where }) => fx.commit(input)),
      send: fromPromise(({ input }: { input: Where & { item: Outgoing } }) => fx.send(input)),
      // Decrypts once; the plaintext is kept in the sealed store, and asking again gives it back.
      decrypt: fromPromise(async ({ input }: { input: Where & { item: Incoming } }) => {
        await secretCrypto().decrypt(input.userId, input.conversationId, input.item.messageId, input.item.ciphertext);
        return { messageId: input.item.messageId };
      }),
      replenish: fromPromise(({ input }: { input: { userId: string; deviceId: string; left: number } }) =>
        fx.replenish(input),
      ),
    },
  });
}

export function wireSecretDevice(s: Services) {
  const fx = secretEffects(s);
  return secretDeviceMachine.provide({
    actors: {
      start: fromPromise(async ({ input }: { input: { userId: string } }) => {
        const { deviceId } = await fx.device(input.userId);
        return { deviceId, conversationIds: await fx.conversationIds(input.userId) };
      }),
      secretChat: wireSecretChat(s),
      watchChat: fromCallback<SecretDeviceEvent, WatchInput>(({ input, sendBack }) => {
        const { userId, conversationId, chat } = input;
        // The text of a message read or sent is in the store: decrypt answers it without the ciphertext.
        const tell = (messageId: string) =>
          secretCrypto()
            .decrypt(userId, conversationId, messageId, '')
            .then(
              (p) => sendBack({ type: 'secretDevice.text', messageId, envelope: p.envelope }),
              () => sendBack({ type: 'secretDevice.unreadable', messageId }),
            );
        const subs = [
          chat.on('secretChat.read', (e) => void tell(e.messageId)),
          chat.on('secretChat.unreadable', (e) =>
            sendBack({ type: 'secretDevice.unreadable', messageId: e.messageId }),
          ),
          chat.on('secretChat.sent', (e) => {
            sendBack({ type: 'secretDevice.sent', clientMessageId: e.clientMessageId, messageId: e.messageId });
            void tell(e.messageId);
          }),
          chat.on('secretChat.sendFailed', (e) =>
            sendBack({ type: 'secretDevice.sendFailed', clientMessageId: e.clientMessageId, message: e.message }),
          ),
        ];
        // «новое устройство» notices come from the commits the worker applied: read them again at each new epoch.
        let epoch: number | null | undefined;
        const notices = () =>
          secretCrypto()
            .deviceNotices(userId, conversationId)
            .then(
              (list) => sendBack({ type: 'secretDevice.notices', conversationId, notices: list }),
              () => undefined,
            );
        subs.push(
          chat.subscribe((s) => {
            if (s.context.epoch === epoch) return;
            epoch = s.context.epoch;
            void notices();
          }),
        );
        void notices();
        return () => {
          for (const sub of subs) sub.unsubscribe();
        };
      }),
    },
  });
}

export function wireSecretDialog(s: Services) {
  const fx = secretEffects(s);
  return secretDialogMachine.provide({
    actors: {
      prepare: fromPromise<unknown, { userId: string }>(({ input }) => fx.device(input.userId)),
      create: fromPromise(
        async ({
          input,
        }: {
          input: { userId: string; memberIds: string[]; title: string | null };
        }): Promise<CreateResult> => {
          try {
            return await fx.create(input);
          } catch (e) {
            if (e instanceof NoDeviceError) return { conversationId: null, noDevice: e.userIds };
            throw e;
          }
        },
      ),
    },
  });
}

/** «Проверить шифрование»: the fingerprint and the devices come from the crypto worker. */
export function wireSecretVerify(_s: Services) {
  return secretVerifyMachine.provide({
    actors: {
      load: fromPromise<SecretVerification, SecretVerifyInput>(({ input }) =>
        secretCrypto().verification(input.userId, input.conversationId),
      ),
    },
  });
}
