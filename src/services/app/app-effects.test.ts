// The registry's lines whose code loads later, joined to their features' effects: each is fetched one way only, so
// the first bundle carries no loader that never runs (bench/client, part a).
import { describe, expect, it } from 'vitest';
import { type RegistryEntry, type RegistryId, registry } from '../../machines/app/registry';
import { appEffects } from './app-effects';
import type { Effects } from './effects';

const entries = Object.entries(registry).map(
  ([id, line]) => [id, { ...line, ...(appEffects as Record<string, Effects>)[id] }] as const,
) as [RegistryId, RegistryEntry & Effects][];

describe('registry lines that load later', () => {
  it("a line marked load: 'wired' has its effects' wired loader", () => {
    const marked = entries.filter(([, e]) => e.load === 'wired');
    expect(marked.length).toBeGreaterThan(30);
    expect(marked.filter(([, e]) => typeof e.wired !== 'function').map(([id]) => id)).toEqual([]);
  });

  it('no line with a wired loader also carries a loader of its bare machine', () => {
    const both = entries.filter(([, e]) => typeof e.wired === 'function' && typeof e.load === 'function');
    expect(both.map(([id]) => id)).toEqual([]);
  });

  it('a line with a wired loader is marked as loading later (the root fetches it, never spawns it at start)', () => {
    const unmarked = entries.filter(([, e]) => typeof e.wired === 'function' && e.load === undefined);
    expect(unmarked.map(([id]) => id)).toEqual([]);
  });

  it('every effects entry names a registry line', () => {
    expect(Object.keys(appEffects).filter((id) => !(id in registry))).toEqual([]);
  });
});
