// The composer's send in a secret chat: the outbox hands the text (the quoted message, the files it uploaded
// encrypted) with the device it knows (the device tells the composer when it starts) to this effect; the device
// encrypts and sends it (POST /api/secret/send; on 409 it catches up and sends again) and answers with
// secretDevice.sent or secretDevice.sendFailed; the effect resolves with the server's message, as the plaintext
// send does.
import type { Message, VoiceInfo } from '../../contract/entities';
import { RequestFailure } from '../../contract/failure';
import { sentMessages } from './secret-effects';
import { forgetSealed, SECRET_FILES_LOST, sealedAttachments } from './secret-files';
import type { SecretDeviceRef } from '../../machines/secretChats/secretDevice/secretDevice.protocol';

export interface SecretSendBody {
  conversationId: string;
  content: string;
  replyToId?: string | null;
  clientMessageId?: string;
  /** Files uploaded encrypted (secret-files.ts): the keys are looked up by url. */
  attachments?: { url: string }[];
  voice?: VoiceInfo | null;
}

/**
 * Sends through `device`, the one the outbox handed over (it waits for one before it sends); without it, like a
 * send that got no answer, tried again later.
 */
export async function sendSecretMessage(
  device: SecretDeviceRef | null,
  body: SecretSendBody,
): Promise<{ message: Message }> {
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
