// The media server in layers, as LiveKit splits media (pkg/sfu) from sessions (pkg/rtc): read from its import
// graph with the TypeScript parser, type imports included. media/ (forwarding, RTP out, SRTP, VP8, down-tracks,
// allocation, estimate) imports only itself and the common leaf modules; session/ (rooms, participants,
// signalling, up-tracks, placements, quality, speakers) adds media/; transport/ (signal server, auth, token
// refresh) adds session/; index.ts, engine.ts (one thread's rooms) and workers/ (rooms on worker threads) compose
// them. Calls upward go through interfaces the upper layer hands down
// (signal.ts's SignalLink, signalling's SignalledParticipant). No cycle anywhere.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../client/import-graph';

const root = path.resolve(__dirname, '../../server/sfu');

const LAYERS = ['common', 'media', 'session', 'transport', 'root'] as const;
function layerOf(file: string): (typeof LAYERS)[number] {
  const rel = path.relative(root, file);
  const top = rel.split(path.sep)[0];
  if (rel === 'index.ts' || rel === 'engine.ts' || top === 'workers') return 'root';
  if (top === 'media' || top === 'session' || top === 'transport') return top;
  return 'common';
}

describe('the media server in layers', () => {
  const graph = importGraph(root);
  const rel = (f: string) => path.relative(root, f);

  it('reads the whole tree, with the three layers populated', () => {
    const counts = new Map<string, number>();
    for (const f of graph.keys()) counts.set(layerOf(f), (counts.get(layerOf(f)) ?? 0) + 1);
    expect(counts.get('media')).toBeGreaterThanOrEqual(10);
    expect(counts.get('session')).toBeGreaterThanOrEqual(10);
    expect(counts.get('transport')).toBeGreaterThanOrEqual(5);
    // The reader sees type-only imports: participant.ts imports signalling's interface only as a type.
    const participant = path.join(root, 'session/participant.ts');
    expect(graph.get(participant)).toContain(path.join(root, 'session/signalling.ts'));
  });

  it('has no import cycle', () => {
    expect(cycles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('imports only downward: common ← media ← session ← transport ← index.ts, engine.ts, workers/', () => {
    const upward: string[] = [];
    for (const [file, deps] of graph) {
      for (const dep of deps) {
        if (LAYERS.indexOf(layerOf(dep)) > LAYERS.indexOf(layerOf(file))) upward.push(`${rel(file)} → ${rel(dep)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the cycle finder finds a cycle, type imports included', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([[a, b]]);
    expect(cycles(new Map([[a, [b]]]))).toEqual([]);
  });
});
