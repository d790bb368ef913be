// Rooms on media worker threads (SFU_WORKERS): two rooms land on two workers and carry media; a worker that dies
// takes only its room down — its participants are told, and reconnect (a full rejoin) on a live worker — while the
// other room's media goes on. @livekit/rtc-node clients, as in sfu-rtc-node.test.ts.
import { dispose, RoomEvent } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RustParticipant } from '../../e2e/sfu-page/rust-client';
import { type Sfu, type SfuWorkers, startSfu } from '../../server/sfu/index';

const apiKey = 'APIworkers';
const apiSecret = 'workers-test-secret-0123456789-0123456789';
let sfu: Sfu;
let workers: SfuWorkers;
const clients: RustParticipant[] = [];

beforeAll(async () => {
  sfu = await startSfu({ port: 0, host: '127.0.0.1', apiKey, apiSecret, hostCandidates: ['127.0.0.1'], workers: 2 });
  if (!sfu.workers) throw new Error('no media workers');
  workers = sfu.workers;
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await sfu.close();
  await dispose();
});

/** A participant and what the SFU told it: Reconnecting or Disconnected. */
async function join(identity: string, room: string): Promise<{ c: RustParticipant; told: string[] }> {
  const at = new AccessToken(apiKey, apiSecret, { identity, name: identity });
  at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  const c = new RustParticipant();
  clients.push(c);
  const told: string[] = [];
  c.room.on(RoomEvent.Reconnecting, () => told.push('reconnecting'));
  c.room.on(RoomEvent.Disconnected, () => told.push('disconnected'));
  await c.connect(sfu.url, await at.toJwt());
  return { c, told };
}

const frames = (c: RustParticipant, from: string) => c.received.videoFrames.get(`${from}:video`)?.frames ?? 0;

describe('embedded SFU on media workers', () => {
  it('places rooms on different workers, and a dead worker takes only its rooms', { timeout: 90_000 }, async () => {
    // A join waits for a worker that is still starting when none is up yet (the server's own start): past the Rust
    // SDK's join timeout (a cold start on a busy machine), the client joins again beside its first join.
    await expect.poll(() => workers.isReady(0), { timeout: 30_000 }).toBe(true);
    const a1 = await join('a1', 'room-a');
    const a2 = await join('a2', 'room-a');
    // With no idle worker left the pool starts the next one, for the next room.
    await expect.poll(() => workers.isReady(1), { timeout: 30_000 }).toBe(true);
    const b1 = await join('b1', 'room-b');
    const b2 = await join('b2', 'room-b');
    const placed = workers.placement();
    expect(placed.get('room-a')).toBeDefined();
    expect(placed.get('room-b')).toBeDefined();
    expect(placed.get('room-a')).not.toBe(placed.get('room-b'));

    await a1.c.publishToneAndPattern();
    await b1.c.publishToneAndPattern();
    await expect.poll(() => frames(a2.c, 'a1'), { timeout: 20_000 }).toBeGreaterThan(10);
    await expect.poll(() => frames(b2.c, 'b1'), { timeout: 20_000 }).toBeGreaterThan(10);
    // Each worker reports its own room.
    const wa = placed.get('room-a') ?? -1;
    const wb = placed.get('room-b') ?? -1;
    await expect
      .poll(() => workers.stats().map((s) => `${s.rooms}/${s.participants}/${s.publishedTracks}`))
      .toEqual(['1/2/2', '1/2/2']);
    await expect.poll(() => workers.stats()[wa]?.packetsIn ?? 0).toBeGreaterThan(20);
    await expect.poll(() => workers.stats()[wb]?.packetsIn ?? 0).toBeGreaterThan(20);

    // Room A's worker dies: its participants are told, room B's are not and its media goes on.
    await workers.terminate(wa);
    await expect.poll(() => a1.told.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => a2.told.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(a1.told).toEqual(['reconnecting']);
    expect(workers.placement().get('room-b')).toBe(wb);
    const bBefore = frames(b2.c, 'b1');
    // The dead worker's restart (a new thread loading the media stack) and room A's rejoins share the two cores with
    // room B meanwhile: on a busy machine B's frames slow down for a while, and keep coming.
    await expect.poll(() => frames(b2.c, 'b1'), { timeout: 30_000 }).toBeGreaterThan(bBefore + 15);
    expect(b1.told).toEqual([]);
    expect(b2.told).toEqual([]);
    await expect.poll(() => workers.isReady(wa), { timeout: 20_000 }).toBe(true);
    // The leave asks for a full reconnect, which the SDK makes at once: a new join, on a live worker.
    const aBefore = frames(a2.c, 'a1');
    await expect.poll(() => frames(a2.c, 'a1'), { timeout: 30_000 }).toBeGreaterThan(aBefore + 10);
    expect(workers.placement().get('room-a')).toBeDefined();

    // Leaving and joining again makes the room anew, on whichever worker has fewer clients then.
    await a1.c.close();
    await a2.c.close();
    const again1 = await join('a1', 'room-a');
    const again2 = await join('a2', 'room-a');
    expect(workers.placement().get('room-a')).toBeDefined();
    await again1.c.publishToneAndPattern();
    await expect.poll(() => frames(again2.c, 'a1'), { timeout: 20_000 }).toBeGreaterThan(10);
    await expect
      .poll(() => again2.c.received.audioPeak.get('a1:audio') ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(1000);
    expect(b1.told).toEqual([]);
    expect(b2.told).toEqual([]);
    await expect.poll(() => sfu.stats()).toMatchObject({ rooms: 2, participants: 4 });
  });
  it('starts the next worker before a room needs it, and places the next room there', { timeout: 60_000 }, async () => {
    const other = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey,
      apiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 2,
    });
    const sockets: WebSocket[] = [];
    try {
      const pool = other.workers;
      if (!pool) throw new Error('no media workers');
      await expect.poll(() => pool.isReady(0), { timeout: 30_000 }).toBe(true);
      // A signalling socket is placed as soon as it is accepted: its room's worker, before any answer.
      const open = async (identity: string, room: string) => {
        const at = new AccessToken(apiKey, apiSecret, { identity });
        at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true });
        const ws = new WebSocket(`${other.url}/rtc?access_token=${await at.toJwt()}`);
        ws.on('error', () => {});
        sockets.push(ws);
        await expect.poll(() => pool.placement().get(room)).toBeDefined();
        return pool.placement().get(room) as number;
      };
      expect(await open('x1', 'room-x')).toBe(0);
      // No idle worker is left: worker 1 starts with no room on it, so room Y's join does not wait for its start.
      await expect.poll(() => pool.isReady(1), { timeout: 30_000 }).toBe(true);
      expect([...pool.placement().values()]).toEqual([0]);
      expect(await open('y1', 'room-y')).toBe(1);
    } finally {
      for (const ws of sockets) ws.close();
      await other.close();
    }
  });
});
