// The conversation-list cache on its own: tickets void builds that raced with a change, eviction by count,
// size and age, and what reaches the other processes.
import { describe, expect, it } from 'vitest';
import { createListCache, type ListCacheOptions } from '../../server/conversations/list-cache';

function cache(over: Partial<ListCacheOptions> = {}) {
  let t = 0;
  const published: string[][] = [];
  const c = createListCache({
    maxEntries: 3,
    maxBytes: 1000,
    maxAgeMs: 60_000,
    publish: (ids) => published.push(ids),
    now: () => t,
    ...over,
  });
  return { c, published, advance: (ms: number) => (t += ms) };
}

describe('conversation list cache', () => {
  it('keeps a built list until a change for its user', () => {
    const { c, published } = cache();
    expect(c.read('a')).toBeUndefined();
    c.keep(c.begin('a'), Buffer.from('{"a":1}'));
    expect(c.read('a')?.toString()).toBe('{"a":1}');
    c.changed(['b']);
    expect(c.read('a')?.toString()).toBe('{"a":1}');
    c.changed(['a', 'a']);
    expect(c.read('a')).toBeUndefined();
    expect(published).toEqual([['b'], ['a']]);
    expect(c.stats()).toMatchObject({ hits: 2, misses: 2, entries: 0, bytes: 0 });
  });

  it('drops a build that a change overtook, and the older of two concurrent builds', () => {
    const { c } = cache();
    const early = c.begin('a');
    c.changed(['a']);
    c.keep(early, Buffer.from('old'));
    expect(c.read('a')).toBeUndefined();
    const first = c.begin('a');
    const second = c.begin('a');
    c.keep(first, Buffer.from('first'));
    expect(c.read('a')).toBeUndefined();
    c.keep(second, Buffer.from('second'));
    expect(c.read('a')?.toString()).toBe('second');
  });

  it('changes from other processes are applied but not sent back, and junk is ignored', () => {
    const { c, published } = cache();
    c.keep(c.begin('a'), Buffer.from('x'));
    c.changedElsewhere(['a']);
    expect(c.read('a')).toBeUndefined();
    c.keep(c.begin('b'), Buffer.from('y'));
    c.changedElsewhere('b' as unknown as string[]);
    c.changedElsewhere([42 as unknown as string]);
    expect(c.read('b')?.toString()).toBe('y');
    expect(published).toEqual([]);
  });

  it('evicts the least recently used beyond the entry and size limits', () => {
    const { c } = cache({ maxBytes: 10 });
    for (const id of ['a', 'b', 'c']) c.keep(c.begin(id), Buffer.from('12'));
    expect(c.read('a')?.toString()).toBe('12'); // a is now the most recent
    c.keep(c.begin('d'), Buffer.from('12'));
    expect(c.read('b')).toBeUndefined();
    expect(c.read('a')?.toString()).toBe('12');
    c.keep(c.begin('e'), Buffer.from('123456789'));
    expect(c.stats().bytes).toBeLessThanOrEqual(10);
    expect(c.read('e')?.toString()).toBe('123456789');
    c.keep(c.begin('f'), Buffer.from('12345678901'));
    expect(c.read('f')).toBeUndefined();
  });

  it('expires entries after maxAge', () => {
    const { c, advance } = cache({ maxAgeMs: 100 });
    c.keep(c.begin('a'), Buffer.from('x'));
    advance(100);
    expect(c.read('a')?.toString()).toBe('x');
    advance(1);
    expect(c.read('a')).toBeUndefined();
  });

  it('resize(0) turns it off; clear forgets everything', () => {
    const { c } = cache();
    c.keep(c.begin('a'), Buffer.from('x'));
    c.resize(0);
    expect(c.read('a')).toBeUndefined();
    c.keep(c.begin('a'), Buffer.from('x'));
    expect(c.read('a')).toBeUndefined();
    c.resize(3);
    c.keep(c.begin('a'), Buffer.from('x'));
    const pending = c.begin('b');
    c.clear();
    c.keep(pending, Buffer.from('y'));
    expect(c.read('a')).toBeUndefined();
    expect(c.read('b')).toBeUndefined();
  });
});
