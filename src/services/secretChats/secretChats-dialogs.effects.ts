// The secret chats' dialogs and calls provided from the services: the creation dialog, a secret call's key and
// «Проверить шифрование». Apart from the device actor's wiring (secretChats.ts), whose chunk loads in the background
// on every signed-in page: these machines load when one of them is first opened.
import { fromCallback, fromPromise } from 'xstate';
import { type SecretCallEffects, secretCallMachine } from '../../machines/secretChats/secretCall/secretCall.machine';
import type {
  CallKey,
  SecretCallEvent,
  SecretCallExchangeInput,
  SecretCallInput,
} from '../../machines/secretChats/secretCall/secretCall.protocol';
import type { SecretChatRef } from '../../machines/secretChats/secretChat/secretChat.protocol';
import {
  type CreateResult,
  type SecretDialogEffects,
  secretDialogMachine,
} from '../../machines/secretChats/secretDialog/secretDialog.machine';
import {
  type SecretVerifyEffects,
  secretVerifyMachine,
} from '../../machines/secretChats/secretVerify/secretVerify.machine';
import type {
  SecretVerification,
  SecretVerifyInput,
  SecretVerifySave,
} from '../../machines/secretChats/secretVerify/secretVerify.protocol';
import { type AnySystem, systemActor } from '../../machines/shared/system';
import type { Services } from '../app/services';
import { secretCrypto } from './crypto/worker-client';
import { NoDeviceError } from './secret-effects';
import { secretEffects } from './secretChats.effects';

export function wireSecretDialog(s: Services) {
  const fx = secretEffects(s);
  return secretDialogMachine.provide({
    actors: {
      prepare: fromPromise<unknown, { userId: string }>(({ input }) => fx.device(input.userId)),
      create: fromPromise(
        async ({
          input,
          system,
        }: {
          input: { userId: string; memberIds: string[]; title: string | null };
          system: AnySystem;
        }): Promise<CreateResult> => {
          try {
            const { conversationId, withoutDevice } = await fx.create(input);
            // The chat's notice names who has no device yet («… ещё не открывал Беседу в браузере»).
            systemActor(system, 'secretDevice')?.send({
              type: 'secretDevice.withoutDevice',
              conversationId,
              userIds: withoutDevice,
            });
            return { conversationId };
          } catch (e) {
            if (e instanceof NoDeviceError) return { conversationId: null, noDevice: e.userIds };
            throw e;
          }
        },
      ),
    } satisfies SecretDialogEffects,
  });
}

/**
 * The call secret's exchange (call-secret.ts, loaded with the call): each input handled in order, what it gives sent
 * back (messages for the data channel, then the new media key).
 */
const exchange = fromCallback<SecretCallExchangeInput, SecretCallInput>(({ input, sendBack, receive }) => {
  let live = true;
  const made = import('./call-secret').then((m) => new m.CallSecretExchange(input.conversationId, input.userId));
  let queue: Promise<unknown> = Promise.resolve();
  receive((event) => {
    queue = queue.then(async () => {
      const x = await made;
      const step =
        event.type === 'secretCall.base'
          ? await x.base(event.base.epoch, event.base.key)
          : event.type === 'secretCall.connected'
            ? await x.connectedTo(event.others)
            : event.type === 'secretCall.joined'
              ? await x.joined(event.identity)
              : event.type === 'secretCall.left'
                ? await x.left(event.identity, event.others)
                : event.type === 'secretCall.helloAgain'
                  ? await x.helloAgain()
                  : await x.received(event.from, event.payload);
      if (!live) return;
      for (const m of step.send) sendBack({ type: 'secretCall.send', payload: m.payload, to: m.to });
      if (step.key) sendBack({ type: 'secretCall.key', key: step.key, generation: x.generation });
    });
    // A message that does not open or hold is dropped inside; nothing else here may stop the next one.
    queue = queue.catch(() => undefined);
  });
  return () => {
    live = false;
  };
});

/** A secret chat's call key: from the crypto worker, again at each epoch the chat's actor reaches. */
export function wireSecretCall() {
  return secretCallMachine.provide({
    actors: {
      exchange,
      derive: fromPromise<CallKey, SecretCallInput>(({ input }) =>
        secretCrypto().callKey(input.userId, input.conversationId),
      ),
      // The chat's actor (a child of the device actor) applies the group's commits; its epoch is the group's.
      watchEpoch: fromCallback<SecretCallEvent, SecretCallInput>(({ input, sendBack, system }) => {
        const device = systemActor(system, 'secretDevice');
        if (!device) return () => {};
        let chat: SecretChatRef | undefined;
        let chatSub: { unsubscribe(): void } | null = null;
        const follow = () => {
          const next = (device.getSnapshot().children as Record<string, SecretChatRef | undefined>)[
            `chat:${input.conversationId}`
          ];
          if (next === chat) return;
          chatSub?.unsubscribe();
          chat = next;
          chatSub =
            chat?.subscribe((s) => {
              if (s.context.epoch !== null) sendBack({ type: 'secretCall.epoch', epoch: s.context.epoch });
            }) ?? null;
        };
        const deviceSub = device.subscribe(follow);
        follow();
        return () => {
          deviceSub.unsubscribe();
          chatSub?.unsubscribe();
        };
      }),
    } satisfies SecretCallEffects,
  });
}

/**
 * «Проверить шифрование»: the fingerprint and the devices come from the crypto worker, and a safety number with each
 * other person of the chat, after the people's identity keys were compared with the server's again.
 */
export function wireSecretVerify(s: Services) {
  const fx = secretEffects(s);
  return secretVerifyMachine.provide({
    actors: {
      load: fromPromise<SecretVerification, SecretVerifyInput>(async ({ input }) => {
        const c = secretCrypto();
        const verification = await c.verification(input.userId, input.conversationId);
        const others = verification.members.map((m) => m.userId).filter((id) => id !== input.userId);
        await fx.identity.see(input.userId, [input.userId, ...others], input.conversationId).catch(() => undefined);
        const people = [];
        for (const id of others) {
          const n = await c.safetyNumber(input.userId, id);
          if (n) people.push(n);
        }
        return { ...verification, people };
      }),
      save: fromPromise<unknown, SecretVerifyInput & SecretVerifySave>(async ({ input }) => {
        if (input.action !== 'acknowledge')
          return secretCrypto().identityVerify(input.userId, input.personId, input.action === 'verify');
        await secretCrypto().identityAcknowledge(input.userId, input.personId);
        // The chats' red line for that person goes.
        await fx.identity.recheck(input.userId);
      }),
    } satisfies SecretVerifyEffects,
  });
}
