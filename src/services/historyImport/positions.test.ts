import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { clearImportPositions, indexedDbPositions, memoryPositions } from './positions';

describe('where a secret import stands, at sign-out', () => {
  it('the IndexedDB store loses the signed-out user’s positions and keeps the others’', async () => {
    const name = 'beseda-history-import-test';
    const store = indexedDbPositions(name);
    await store.set('u1', 'c1', 'k1', { done: 400, total: 1000 });
    await store.set('u1', 'c2', 'k2', { done: 10, total: 20 });
    await store.set('u10', 'c1', 'k1', { done: 5, total: 9 });
    await clearImportPositions('u1', name);
    expect(await store.get('u1', 'c1', 'k1')).toBeNull();
    expect(await store.get('u1', 'c2', 'k2')).toBeNull();
    expect(await store.get('u10', 'c1', 'k1')).toEqual({ done: 5, total: 9 });
  });

  it('the memory store the same', async () => {
    const store = memoryPositions();
    await store.set('u1', 'c1', 'k1', { done: 1, total: 2 });
    await store.set('u10', 'c1', 'k1', { done: 3, total: 4 });
    await store.clear('u1');
    expect(await store.get('u1', 'c1', 'k1')).toBeNull();
    expect(await store.get('u10', 'c1', 'k1')).toEqual({ done: 3, total: 4 });
  });
});
