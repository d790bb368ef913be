// The conversation-list cache on its own: tickets void builds that raced with a change, eviction by count,
// size and age, and what reaches the other processes.
import { describe, expect, it } from 'vitest';
import { createListCache, type ListCacheOptions, MAX_STALE } from '../../server/conversations/list-cache';
import { joinParts, type ListPart, patchParts } from '../../server/conversations/list-parts';

function cache(over: Partial<ListCacheOptions> = {}) {
  let t = 0;
  const published: string[][] = [];
  const scoped: [string[], string][] = [];
  const c = createListCache({
    maxEntries: 3,
    maxBytes: 1000,
    maxAgeMs: 60_000,
    publish: (ids, conversationId) =>
      conversationId === undefined ? published.push(ids) : scoped.push([ids, conversationId]),
    now: () => t,
    ...over,
  });
  return { c, published, scoped, advance: (ms: number) => (t += ms) };
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

  const part = (id: string, activity: string): ListPart => ({ id, activity, json: Buffer.from(`{"id":"${id}"}`) });

  it('keeps a list whose change was inside a conversation, with that entry stale; a change to a person drops it', () => {
    const { c, scoped, published } = cache();
    const parts = [part('x', '2'), part('y', '1')];
    c.keep(c.begin('a'), joinParts(parts), parts);
    c.changed(['a', 'b'], 'y');
    expect(scoped).toEqual([[['a', 'b'], 'y']]);
    expect(c.read('a')).toBeUndefined();
    expect(c.stale('a')).toEqual({ parts, stale: new Set(['y']) });
    expect(c.stale('b')).toBeUndefined(); // nothing kept for b
    c.changedElsewhere(['a'], 'x');
    expect(c.stale('a')?.stale).toEqual(new Set(['x', 'y']));
    c.changed(['a']);
    expect(c.stale('a')).toBeUndefined();
    expect(published).toEqual([['a']]);
    expect(c.stats().patched).toBe(2);
  });

  it('drops a list once more than MAX_STALE of its conversations changed, and a list kept without parts at once', () => {
    const { c } = cache();
    c.keep(c.begin('a'), Buffer.from('[]'), []);
    for (let i = 0; i < MAX_STALE; i++) c.changed(['a'], `c${i}`);
    c.changed(['a'], 'c0'); // already stale: no new one
    expect(c.stale('a')?.stale.size).toBe(MAX_STALE);
    c.changed(['a'], 'one-too-many');
    expect(c.stale('a')).toBeUndefined();
    c.keep(c.begin('b'), Buffer.from('[]'));
    c.changed(['b'], 'c0');
    expect(c.stale('b')).toBeUndefined();
  });

  it('a build that a change inside a conversation overtook is not kept', () => {
    const { c } = cache();
    c.keep(c.begin('a'), Buffer.from('old'), [part('x', '1')]);
    c.changed(['a'], 'x');
    const ticket = c.begin('a');
    c.changed(['a'], 'x'); // arrives while the stale entry is rebuilt
    c.keep(ticket, Buffer.from('patched'), [part('x', '2')]);
    expect(c.read('a')).toBeUndefined();
    expect(c.stale('a')?.stale).toEqual(new Set(['x']));
  });

  it('patches parts in list order: newest activity first, then by id; a conversation gone is left out', () => {
    const parts = [part('p', '3'), part('q', '2'), part('r', '1')];
    const patched = patchParts(parts, new Set(['r', 'q']), [part('r', '4')]);
    expect(patched.map((p) => p.id)).toEqual(['r', 'p']);
    expect(patchParts([part('b', '1'), part('c', '1')], new Set(['c']), [part('a', '1')]).map((p) => p.id)).toEqual([
      'a',
      'b',
    ]);
    expect(JSON.parse(joinParts(patched).toString())).toEqual({ conversations: [{ id: 'r' }, { id: 'p' }] });
    expect(JSON.parse(joinParts([]).toString())).toEqual({ conversations: [] });
  });
});
