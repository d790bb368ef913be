// The composer's send in a secret chat: the outbox hands the text (the quoted message, the files it uploaded
// encrypted) to this device's secret chat actor, which encrypts and sends it (POST /api/secret/send; on 409 it
// catches up and sends again), and answers with the server's message, as the plaintext send does.
import type { Message, VoiceInfo } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { sentMessages } from '../../../services/secretChats/secret-effects';
import { forgetSealed, SECRET_FILES_LOST, sealedAttachments } from '../../../services/secretChats/secret-files';
import type { SecretDeviceRef } from '../../secretChats/secretDevice/secretDevice.protocol';
import { type AnySystem, systemActor } from '../../shared/system';

export interface SecretSendBody {
  conversationId: string;
  content: string;
  replyToId?: string | null;
  clientMessageId?: string;
  /** Files uploaded encrypted (secret-files.ts): the keys are looked up by url. */
  attachments?: { url: string }[];
  voice?: VoiceInfo | null;
}

/** How long a send waits for the device actor to come (its code loading, the chats page learning of the chat). */
export const DEVICE_WAIT_MS = 20_000;

/**
 * The device actor, waited for when it is not there yet: the first message of a chat just made is often sent
 * before the chats page has learnt the chat is secret and started the device. Found by looking again whenever
 * the actor system reports anything (the device's own start among it); null after `waitMs`.
 */
export function deviceActor(system: AnySystem, waitMs = DEVICE_WAIT_MS): Promise<SecretDeviceRef | null> {
  const now = systemActor(system, 'secretDevice');
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (device: SecretDeviceRef | null) => {
      sub.unsubscribe();
      clearTimeout(timer);
      resolve(device);
    };
    const sub = system.inspect(() => {
      const device = systemActor(system, 'secretDevice');
      if (device) finish(device);
    });
    timer = setTimeout(() => finish(null), waitMs);
  });
}

export async function sendSecretMessage(system: AnySystem, body: SecretSendBody): Promise<{ message: Message }> {
  const device = await deviceActor(system);
  // Still no device actor (the page is not showing secret chats): like a send that got no answer, tried again later.
  if (!device) throw new RequestFailure(null, null);
  const clientMessageId = body.clientMessageId ?? crypto.randomUUID();
  const urls = (body.attachments ?? []).map((a) => a.url);
  const attachments = urls.length ? sealedAttachments(urls, body.voice) : null;
  if (urls.length && !attachments) return Promise.reject(new RequestFailure(400, SECRET_FILES_LOST));
  return new Promise((resolve, reject) => {
    const subs = [
      device.on('secretDevice.sent', (e) => {
        if (e.clientMessageId !== clientMessageId) return;
        done();
        forgetSealed(urls);
        const message = sentMessages.get(clientMessageId);
        sentMessages.delete(clientMessageId);
        if (message) resolve({ message });
        else reject(new RequestFailure(null, null));
      }),
      device.on('secretDevice.sendFailed', (e) => {
        if (e.clientMessageId !== clientMessageId) return;
        done();
        reject(new RequestFailure(400, e.message));
      }),
    ];
    const done = () => {
      for (const s of subs) s.unsubscribe();
    };
    device.send({
      type: 'secretDevice.send',
      conversationId: body.conversationId,
      item: {
        clientMessageId,
        envelope: {
          v: 1,
          kind: 'text',
          text: body.content,
          ...(body.replyToId ? { replyToId: body.replyToId } : {}),
          ...(attachments ? { attachments } : {}),
        },
      },
    });
  });
}
