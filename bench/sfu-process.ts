// The embedded SFU alone in a child process, so the benchmark can read its CPU time and memory from /proc
// without counting the clients. Answers "stats" messages over IPC.
// Only the capacity modes enlarge the UDP buffers (udp-rcvbuf.ts); the one-publisher bench keeps its figures' setup.
if (process.env.BENCH_MODE === 'capacity' || process.env.BENCH_MODE === 'room10') await import('./udp-rcvbuf');
const { startSfu } = await import('../server/sfu/index');

const sfu = await startSfu({
  port: 0,
  host: '127.0.0.1',
  apiKey: process.env.BENCH_API_KEY ?? '',
  apiSecret: process.env.BENCH_API_SECRET ?? '',
  hostCandidates: ['127.0.0.1'],
  // The forwarder's throughput: its rtc-node subscribers share the 2 cores with it, their REMB drops under that
  // CPU load and would pause their video (bench/README.md). BENCH_BANDWIDTH=on measures with it.
  bandwidthAllocation: process.env.BENCH_BANDWIDTH === 'on',
  // One room on the one core the SFU is pinned to, its figures read the moment the benchmark asks: in this thread.
  workers: 0,
});
process.send?.({ type: 'ready', url: sfu.url });
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'stats') process.send?.({ type: 'stats', stats: sfu.stats() });
  // The layer each subscription forwards now, as the SFU sees it (BENCH_MODE=room10).
  if (msg.type === 'layers') {
    const layers: Array<{
      subscriber: string;
      publisherSid: string;
      kind: string;
      layer: string | null;
      paused: boolean;
    }> = [];
    for (const room of sfu.rooms.values())
      for (const p of room.participants.values())
        for (const sub of p.subscriptions.values())
          layers.push({
            subscriber: p.identity,
            publisherSid: sub.track.publisherSid,
            kind: sub.track.kind,
            layer: sub.layer,
            paused: sub.congested,
          });
    process.send?.({ type: 'layers', layers });
  }
  if (msg.type === 'memory') {
    // Collect first so the figure is what the sessions hold, not garbage waiting for the next GC.
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    process.send?.({ type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers });
  }
  if (msg.type === 'stop') void sfu.close().then(() => process.exit(0));
});

export {};
