// Message ids: UUIDv7, so new messages land at the right edge of the id index instead of a random page.
import { describe, expect, it } from 'vitest';
import { newMessageId } from '../../server/messages/message-id';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('message ids', () => {
  it('are RFC 9562 version 7 UUIDs carrying the millisecond they were made', () => {
    const ms = Date.UTC(2026, 10, 22, 12, 0, 0, 123);
    const id = newMessageId(ms);
    expect(id).toMatch(V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('sort by creation time as strings, so index inserts go to its right edge', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => newMessageId(1_800_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
  });

  it('are unique within one millisecond and across the random pool refills', () => {
    const ms = Date.now();
    const ids = Array.from({ length: 5000 }, () => newMessageId(ms));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(V7);
  });
});
