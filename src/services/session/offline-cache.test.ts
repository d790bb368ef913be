import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/entities';
import { mergeLatest } from './offline-cache';

const at = (id: string, minute: number) =>
  ({ id, createdAt: `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z` }) as Message;
const ids = (list: Message[]) => list.map((m) => m.id);

describe('what the offline store keeps of a conversation', () => {
  it('keeps older messages and takes the latest page as the server has it', () => {
    const kept = [at('a', 1), at('b', 2), at('c', 3), at('d', 4)];
    expect(ids(mergeLatest(kept, [at('c', 3), at('d', 4), at('e', 5)], 100))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('drops a kept message the page no longer has (deleted while no page was open)', () => {
    const kept = [at('a', 1), at('b', 2), at('c', 3), at('d', 4)];
    expect(ids(mergeLatest(kept, [at('b', 2), at('d', 4)], 100))).toEqual(['a', 'b', 'd']);
    expect(mergeLatest(kept, [], 100)).toEqual([]);
  });

  it('keeps only the newest `max`', () => {
    const kept = [at('a', 1), at('b', 2)];
    expect(ids(mergeLatest(kept, [at('c', 3), at('d', 4)], 3))).toEqual(['b', 'c', 'd']);
  });
});
