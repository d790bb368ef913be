// Sender-chosen ids (message-ids.ts): UUIDv7s that the envelope parser accepts and that carry their time, and the
// core's translation between a view's server ids and the ids sealed in envelopes.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MESSAGE_ID } from './envelope';
import { createMessageIds, newMessageId } from './message-ids';
import { timeOfId } from './secret-actions';
import { createSecretStore, indexedDbBackend } from './secret-store';

describe('sender-chosen message ids', () => {
  it('are UUIDv7s of the sending time, all different', () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
    const ids = Array.from({ length: 100 }, () => newMessageId(at));
    for (const id of ids) expect(id).toMatch(MESSAGE_ID);
    expect(new Set(ids).size).toBe(100);
    expect(timeOfId(ids[0]!)).toBe(new Date(at).toISOString());
  });

  it('turn a view’s server ids into the targets’ own on the way out, and back on the way in', async () => {
    const store = createSecretStore(indexedDbBackend('message-ids-1'));
    const ids = createMessageIds(store, () => Date.UTC(2026, 0, 1));
    const textId = newMessageId();
    await store.savePlaintext('u', {
      messageId: 's1',
      conversationId: 'c',
      senderUserId: 'anna',
      senderDeviceId: 'a1',
      epoch: 1,
      envelope: { v: 2, id: textId, kind: 'text', text: 'привет' },
    });
    const reaction = await ids.toWire('u', 'c', { v: 1, kind: 'reaction', targetId: 's1', emoji: '👍' });
    expect(reaction).toMatchObject({ v: 2, kind: 'reaction', targetId: textId });
    expect(reaction.id).toMatch(MESSAGE_ID);
    // A message this device never read keeps the name the view gave it.
    expect(await ids.toWire('u', 'c', { v: 1, kind: 'edit', targetId: 's9', text: 'x' })).toMatchObject({
      targetId: 's9',
    });
    // Found by its own id only: its server id names nothing.
    expect((await ids.find('u', 'c', textId))?.messageId).toBe('s1');
    expect(await ids.find('u', 'c', 's1')).toBeNull();
    const reply = { v: 2 as const, id: newMessageId(), kind: 'text' as const, text: 'да', replyToId: textId };
    const shown = await ids.toView('u', 'c', {
      messageId: 's2',
      conversationId: 'c',
      senderUserId: 'boris',
      senderDeviceId: 'b1',
      epoch: 1,
      envelope: reply,
    });
    expect(shown.envelope).toMatchObject({ replyToId: 's1' });
  });
});
