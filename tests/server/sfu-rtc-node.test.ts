// Two @livekit/rtc-node participants (LiveKit's Rust SDK) through the embedded SFU: media from one decoded by the
// other, a late joiner, targeted data (destinationIdentities), unpublish and leave seen.
import { dispose, type RemoteParticipant, type RemoteTrackPublication, RoomEvent } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RustParticipant } from '../../e2e/sfu-page/rust-client';
import { type Sfu, startSfu } from '../../server/sfu/index';
import type { SfuTransport } from '../../server/sfu/session/peer';
import { within } from './within';

const apiKey = 'APIrustnode';
const apiSecret = 'rust-node-test-secret-0123456789-0123456789';
const clients: RustParticipant[] = [];

afterAll(async () => {
  await dispose();
});

// The same walk on each WebRTC implementation under the SFU (SFU_TRANSPORT): werift, and, with SFU_NATIVE_TESTS=1,
// libdatachannel through node-datachannel (experimental, out of the default path and of CI: server/sfu/README.md
// «Native packet path»). The Rust clients publish without simulcast, so the native path can route their SSRCs.
const transports: SfuTransport[] = process.env.SFU_NATIVE_TESTS === '1' ? ['werift', 'datachannel'] : ['werift'];
describe.each(transports)('embedded SFU with @livekit/rtc-node clients (%s)', (transport) => {
  let sfu: Sfu;

  beforeAll(async () => {
    // The tests look into the rooms themselves; the port-range one below runs on media workers.
    sfu = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey,
      apiSecret,
      hostCandidates: ['127.0.0.1'],
      workers: 0,
      transport,
    });
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
    await sfu.close();
  });

  async function join(identity: string, room = 'rust-room', singlePeerConnection = true): Promise<RustParticipant> {
    const at = new AccessToken(apiKey, apiSecret, { identity, name: identity });
    at.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    const c = new RustParticipant();
    clients.push(c);
    await c.connect(sfu.url, await at.toJwt(), singlePeerConnection);
    return c;
  }

  it('forwards audio, video and data between Rust SDK participants', { timeout: 60_000 }, async () => {
    const a = await within(15_000, 'rust-a joined', join('rust-a'));
    const b = await within(15_000, 'rust-b joined', join('rust-b'));
    await within(15_000, 'rust-a published', a.publishToneAndPattern());

    await expect
      .poll(() => b.received.videoFrames.get('rust-a:video')?.frames ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(10);
    expect(b.received.videoFrames.get('rust-a:video')?.width).toBe(640);
    await expect.poll(() => b.received.audioPeak.get('rust-a:audio') ?? 0, { timeout: 20_000 }).toBeGreaterThan(1000);

    // A late joiner receives what is already flowing.
    const c = await within(15_000, 'rust-c joined', join('rust-c'));
    await expect
      .poll(() => c.received.videoFrames.get('rust-a:video')?.frames ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(5);

    // Data addressed to one participant reaches only that one.
    await within(
      10_000,
      'data for c sent',
      a.room.localParticipant?.publishData(new TextEncoder().encode('only for c'), {
        reliable: true,
        destination_identities: ['rust-c'],
      }) ?? Promise.resolve(),
    );
    await within(10_000, 'data for everyone sent', a.publishText('for everyone'));
    await expect.poll(() => b.received.data).toContainEqual({ from: 'rust-a', text: 'for everyone' });
    await expect.poll(() => c.received.data).toContainEqual({ from: 'rust-a', text: 'only for c' });
    expect(b.received.data).not.toContainEqual({ from: 'rust-a', text: 'only for c' });

    // Unpublishing is seen by the others (the SFU notices the m-line stop sending in the next offer).
    const unpublished = new Promise<string>((resolve) =>
      b.room.on(RoomEvent.TrackUnpublished, (pub: RemoteTrackPublication, p: RemoteParticipant) =>
        resolve(`${p.identity}:${pub.name}`),
      ),
    );
    const audioPub = [...(a.room.localParticipant?.trackPublications.values() ?? [])].find((p) => p.name === 'tone');
    await within(
      10_000,
      'the tone unpublished',
      a.room.localParticipant?.unpublishTrack(audioPub?.sid ?? '') ?? Promise.resolve(),
    );
    expect(await within(10_000, 'b saw the unpublish', unpublished)).toBe('rust-a:tone');
    expect(sfu.rooms.get('rust-room')?.findTrack(audioPub?.sid ?? '')).toBeUndefined();

    // Leave is seen by the others.
    const left = new Promise<string>((resolve) =>
      b.room.on(RoomEvent.ParticipantDisconnected, (p: RemoteParticipant) => resolve(p.identity)),
    );
    await within(10_000, 'rust-c left', c.close());
    expect(await within(10_000, 'b saw rust-c leave', left)).toBe('rust-c');
    await expect.poll(() => sfu.rooms.get('rust-room')?.participants.size).toBe(2);
  });

  it('serves the legacy two-peer-connection flow (/rtc) alongside /rtc/v1', { timeout: 60_000 }, async () => {
    const legacy = await join('legacy', 'mixed-room', false);
    const modern = await join('modern', 'mixed-room', true);
    await legacy.publishToneAndPattern();
    await modern.publishToneAndPattern();
    const modes = [...(sfu.rooms.get('mixed-room')?.participants.values() ?? [])].map((p) => `${p.identity}:${p.mode}`);
    expect(modes.sort()).toEqual(['legacy:dual', 'modern:single']);

    await expect
      .poll(() => legacy.received.videoFrames.get('modern:video')?.frames ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await expect
      .poll(() => modern.received.videoFrames.get('legacy:video')?.frames ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await expect
      .poll(() => legacy.received.audioPeak.get('modern:audio') ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(1000);
    await expect
      .poll(() => modern.received.audioPeak.get('legacy:audio') ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(1000);
    await legacy.publishText('legacy says hi');
    await expect.poll(() => modern.received.data).toContainEqual({ from: 'legacy', text: 'legacy says hi' });
    await modern.publishText('modern says hi');
    await expect.poll(() => legacy.received.data).toContainEqual({ from: 'modern', text: 'modern says hi' });
  });

  // node-datachannel's addon aborts the process when it runs in two worker threads: its rooms stay in this one.
  it.runIf(transport === 'datachannel')(
    'keeps its rooms in the main thread when media workers are asked for',
    {
      timeout: 30_000,
    },
    async () => {
      const asked = await startSfu({
        port: 0,
        host: '127.0.0.1',
        apiKey,
        apiSecret,
        hostCandidates: ['127.0.0.1'],
        workers: 2,
        transport,
      });
      try {
        const at = new AccessToken(apiKey, apiSecret, { identity: 'threaded' });
        at.addGrant({ room: 'threaded', roomJoin: true });
        const c = new RustParticipant();
        clients.push(c);
        await c.connect(asked.url, await at.toJwt());
        await c.publishToneAndPattern();
        expect(asked.workers?.count ?? 0).toBe(0);
        await expect.poll(() => asked.stats().packetsIn, { timeout: 15_000 }).toBeGreaterThan(20);
        expect(asked.rooms.get('threaded')?.participants.size).toBe(1);
        await c.close();
      } finally {
        await asked.close();
      }
    },
  );

  it('keeps media on the configured UDP ports and advertised addresses', { timeout: 30_000 }, async () => {
    const ranged = await startSfu({
      port: 0,
      host: '127.0.0.1',
      apiKey,
      apiSecret,
      hostCandidates: ['127.0.0.1'],
      udpPortRange: transport === 'werift' ? [47000, 47050] : [47100, 47150],
      workers: 0,
      transport,
    });
    try {
      const at = new AccessToken(apiKey, apiSecret, { identity: 'ported' });
      at.addGrant({ room: 'ported', roomJoin: true });
      const c = new RustParticipant();
      clients.push(c);
      await c.connect(ranged.url, await at.toJwt());
      await c.publishToneAndPattern();
      await expect.poll(() => ranged.stats().packetsIn, { timeout: 15_000 }).toBeGreaterThan(20);
      const p = [...(ranged.rooms.get('ported')?.participants.values() ?? [])][0];
      // The connection is the transport this describe is about.
      expect(p?.peer.constructor.name).toBe(transport === 'werift' ? 'WeriftPeer' : 'DcPeer');
      const candidates = (p?.lastAnswerSdp ?? '').split('\r\n').filter((l) => l.startsWith('a=candidate:'));
      expect(candidates.length).toBeGreaterThan(0);
      for (const line of candidates) {
        const [, , , , address, port] = line.split(' ');
        expect(address).toBe('127.0.0.1');
        expect(Number(port)).toBeGreaterThanOrEqual(transport === 'werift' ? 47000 : 47100);
        expect(Number(port)).toBeLessThanOrEqual(transport === 'werift' ? 47050 : 47150);
      }
      await c.close();
    } finally {
      await ranged.close();
    }
  });
});
