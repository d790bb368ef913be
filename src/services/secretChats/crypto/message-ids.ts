// Sender-chosen message ids (docs/secret-chats.md "Senders and message ids"). A version-2 envelope carries its own
// id, a UUIDv7 made on the sending device, and names the messages it answers, edits or reacts to by those ids, so
// what a control points to is sealed inside the ciphertext with the control itself: a server that delivers
// messages under swapped ids moves no reaction, edit or reply. Views still speak of the server's ids (that is how
// they list messages): the crypto core turns their envelopes into version 2 on the way out (`toWire`) and the ids
// it kept back into the server's on the way in (`toView`), through the store's id → server id record.
import { type Envelope, idOf } from './envelope';

export { idOf };
import type { PlaintextRecord, SecretStore } from './secret-store';

/** A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, the version, 74 random bits. */
export function newMessageId(now: number = Date.now()): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 5, t = now; i >= 0; i--, t = Math.floor(t / 256)) b[i] = t % 256;
  b[6] = 0x70 | ((b[6] ?? 0) & 0x0f);
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createMessageIds(store: SecretStore, now: () => number = Date.now) {
  /** The kept text a control or a reply names: by its sender's id, or (version 1) by the server's. */
  async function find(userId: string, conversationId: string, id: string): Promise<PlaintextRecord | null> {
    const messageId = await store.messageIdOf(userId, conversationId, id);
    if (messageId) return store.loadPlaintext(userId, conversationId, messageId);
    const direct = await store.loadPlaintext(userId, conversationId, id);
    // A version-2 text is named by its own id only: the server's id of it names nothing.
    return direct && !direct.envelope.id ? direct : null;
  }

  /** The id to name a message shown under the server's `messageId` by (unchanged when this device never read it). */
  async function named(userId: string, conversationId: string, messageId: string): Promise<string> {
    const kept = await store.loadPlaintext(userId, conversationId, messageId);
    return kept?.envelope.kind === 'text' ? idOf(kept) : messageId;
  }

  /** A view's envelope as it is sent: version 2, its own new id, the ids it names its targets' own. */
  async function toWire(userId: string, conversationId: string, e: Envelope): Promise<Envelope> {
    if (e.v === 2 && e.id) return e;
    const id = newMessageId(now());
    switch (e.kind) {
      case 'text': {
        const { v: _v, id: _id, replyToId, ...rest } = e;
        return {
          v: 2,
          id,
          ...rest,
          ...(replyToId ? { replyToId: await named(userId, conversationId, replyToId) } : {}),
        };
      }
      case 'copy': {
        // Sent again under the original's id: its targetId stays the server's id of the message it fills.
        const original = await store.loadPlaintext(userId, conversationId, e.targetId);
        const { v: _v, id: _id, replyToId, ...rest } = e;
        return {
          v: 2,
          id: original?.envelope.id ?? id,
          ...rest,
          ...(replyToId ? { replyToId: await named(userId, conversationId, replyToId) } : {}),
        };
      }
      default: {
        const { v: _v, id: _id, ...rest } = e;
        return { v: 2, id, ...rest, targetId: await named(userId, conversationId, e.targetId) };
      }
    }
  }

  /** A kept record as views read it: the ids it names turned into the server's ids of messages this device has. */
  async function toView(userId: string, conversationId: string, r: PlaintextRecord): Promise<PlaintextRecord> {
    const e = r.envelope;
    if (e.v !== 2) return r;
    const server = async (id: string) => (await store.messageIdOf(userId, conversationId, id)) ?? id;
    if (e.kind === 'text' && e.replyToId) return { ...r, envelope: { ...e, replyToId: await server(e.replyToId) } };
    if (e.kind === 'edit' || e.kind === 'reaction' || e.kind === 'delete')
      return { ...r, envelope: { ...e, targetId: await server(e.targetId) } };
    return r;
  }

  return { find, toWire, toView };
}
