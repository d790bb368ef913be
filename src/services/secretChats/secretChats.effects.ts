// The secret chats' actors provided from the services (docs/secret-chats.md "The client"): the effects over the
// REST API and the crypto worker (made on first use, crypto/worker-client.ts). This module loads with the device
// actor or the creation dialog, never with the first bundle.
import { fromCallback, fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { defaultBaseUrl } from '../app/api';
import type { SecretPlaintext } from './crypto/secret-crypto';
import { isControl, shownOf } from './crypto/secret-actions';
import { secretCrypto } from './crypto/worker-client';
import { type SecretChatEffects, secretChatMachine } from '../../machines/secretChats/secretChat/secretChat.machine';
import type { Incoming, Outgoing } from '../../machines/secretChats/secretChat/secretChat.protocol';
import {
  type BackfillInput,
  type SecretDeviceEffects,
  secretDeviceMachine,
  type WatchInput,
} from '../../machines/secretChats/secretDevice/secretDevice.machine';
import type { SecretDeviceEvent } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { backUp } from './secretChats-recovery.effects';
import { createSecretEffects, type SecretEffects, type Where } from './secret-effects';
import { setSecretFileTransfer } from './secret-files';
import { searchWithSecretChats as mergeSecretSearch, type SecretSearchInput } from './secret-search';

/** Message search with secret chats (search.effects.ts loads this module for a user who has one). */
export function searchWithSecretChats(input: Omit<SecretSearchInput, 'crypto'>) {
  return mergeSecretSearch({ ...input, crypto: secretCrypto() });
}

let shared: { api: Services['api']; effects: SecretEffects } | null = null;

/** One set of effects per page (the device's registration is shared by the device actor and the dialog). */
export function secretEffects(s: Services): SecretEffects {
  if (!shared || shared.api !== s.api) {
    // The worker's requests carry the session's access token as kept for the page (none when the browser keeps
    // nothing: the worker is then refused and the page registers by its own requests).
    const access = () => ({
      baseURL: new URL(defaultBaseUrl(), location.href).href,
      token: s.sessionStore.load()?.accessToken ?? null,
    });
    shared = { api: s.api, effects: createSecretEffects(s.api, secretCrypto, access) };
  }
  return shared.effects;
}

export function wireSecretChat(s: Services) {
  const fx = secretEffects(s);
  return secretChatMachine.provide({
    actors: {
      register: fromPromise(({ input }: { input: { userId: string } }) => fx.device(input.userId)),
      catchUp: fromPromise(({ input }: { input: Where & { after: number } }) => fx.catchUp(input)),
      commit: fromPromise(({ input }: { input: Where }) => fx.commit(input)),
      updateLeaf: fromPromise(({ input }: { input: Where }) => fx.updateLeaf(input)),
      send: fromPromise(({ input }: { input: Where & { item: Outgoing } }) => fx.send(input)),
      // Decrypts once; the plaintext is kept in the sealed store, and asking again gives it back.
      decrypt: fromPromise(async ({ input }: { input: Where & { item: Incoming } }) => {
        const { userId, conversationId, item } = input;
        await secretCrypto().decrypt(userId, conversationId, item.messageId, item.ciphertext);
        // Into the local search index (its failure never fails reading).
        if (item.createdAt)
          await secretCrypto()
            .indexMessage(userId, { conversationId, messageId: item.messageId, createdAt: item.createdAt })
            .catch(() => undefined);
        return { messageId: item.messageId };
      }),
      replenish: fromPromise(({ input }: { input: { userId: string; deviceId: string; left: number } }) =>
        fx.replenish(input),
      ),
    } satisfies SecretChatEffects,
  });
}

/** Messages read per chat at each start: what a device away for a while is likeliest to be searched for. */
const BACKFILL_PAGE = 50;

export function wireSecretDevice(s: Services) {
  const fx = secretEffects(s);
  setSecretFileTransfer(s.secretFiles);
  return secretDeviceMachine.provide({
    actors: {
      start: fromPromise(async ({ input }: { input: { userId: string } }) => {
        const { deviceId } = await fx.device(input.userId);
        const { conversationIds, withoutDevice } = await fx.chats(input.userId);
        backUp(s, input.userId); // what was kept before a reload and not uploaded yet
        return { deviceId, conversationIds, withoutDevice };
      }),
      secretChat: wireSecretChat(s),
      backfill: fromCallback<SecretDeviceEvent, BackfillInput>(({ input, sendBack }) => {
        let stopped = false;
        void (async () => {
          for (const conversationId of input.conversationIds) {
            if (stopped) return;
            const page = await s.api
              .call('messages', { params: { id: conversationId }, query: { limit: BACKFILL_PAGE } })
              .catch(() => null);
            // Oldest first: the order they were sent, as the chat's actor reads them.
            for (const m of [...(page?.messages ?? [])].reverse())
              if (!stopped && m.type === 'ENCRYPTED')
                sendBack({
                  type: 'secretDevice.need',
                  conversationId,
                  messageId: m.id,
                  ciphertext: m.content,
                  createdAt: m.createdAt,
                });
          }
        })();
        return () => {
          stopped = true;
        };
      }),
      watchChat: fromCallback<SecretDeviceEvent, WatchInput>(({ input, sendBack, receive }) => {
        const { userId, conversationId, chat } = input;
        // A text as it is now (edited, with its reactions); an edit or a reaction was applied to its target (or
        // waits for it), which is told anew.
        const report = (messageId: string, p: SecretPlaintext): Promise<void> | undefined => {
          if (isControl(p.envelope) && 'targetId' in p.envelope) {
            const { targetId } = p.envelope;
            return secretCrypto()
              .decrypt(userId, conversationId, targetId, '')
              .then((t) => report(targetId, t))
              .catch(() => undefined);
          }
          const shown = shownOf(p);
          sendBack({
            type: 'secretDevice.text',
            messageId,
            envelope: p.envelope.kind === 'text' ? { ...p.envelope, text: shown.text } : p.envelope,
            ...(shown.edited ? { edited: shown.edited } : {}),
            ...(shown.reactions.length ? { reactions: shown.reactions } : {}),
            senderUserId: p.senderUserId,
          });
          return undefined;
        };
        // The text of a message read or sent is in the store: decrypt answers it without the ciphertext.
        const tell = (messageId: string) =>
          secretCrypto()
            .decrypt(userId, conversationId, messageId, '')
            .then(
              (p) => {
                void report(messageId, p);
                backUp(s, userId); // a recovery key's backup takes what was just kept
              },
              () => sendBack({ type: 'secretDevice.unreadable', messageId }),
            );
        receive((e) => {
          if (e.type === 'secretDevice.forget')
            void secretCrypto()
              .forget(userId, conversationId, e.messageId)
              .catch(() => undefined);
        });
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
        // Messages held for members who had no device: sent again (as copies, in order) once a commit brought
        // their first device in; each is taken from the held list as it is queued, so it goes once.
        const release = () =>
          secretCrypto()
            .release(userId, conversationId)
            .then(
              (copies) => {
                for (const c of copies)
                  sendBack({
                    type: 'secretDevice.send',
                    conversationId,
                    item: { clientMessageId: `copy-${c.messageId}`, envelope: c.envelope },
                  });
              },
              () => undefined,
            );
        subs.push(
          chat.subscribe((s) => {
            if (s.context.epoch === epoch) return;
            epoch = s.context.epoch;
            void notices();
            if (epoch !== null) void release();
          }),
        );
        void notices();
        // People whose identity key changed: every secret chat with them says so in red.
        const offChanges = fx.identity.onChanges((userIds) =>
          sendBack({ type: 'secretDevice.identityChanged', userIds }),
        );
        void secretCrypto()
          .identityChanges(userId)
          .then(
            (userIds) => sendBack({ type: 'secretDevice.identityChanged', userIds }),
            () => undefined,
          );
        return () => {
          offChanges();
          for (const sub of subs) sub.unsubscribe();
        };
      }),
    } satisfies SecretDeviceEffects,
  });
}
