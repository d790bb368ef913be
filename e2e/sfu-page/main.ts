// A small page that drives livekit-client against the embedded SFU for e2e/sfu.spec.ts. It exposes `window.sfu`
// so the spec can join, publish, chat, mute and read what was received (decoded video frames, audio energy).
import {
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  Track,
  VideoQuality,
} from 'livekit-client';
import { encryptedRoom } from '../../src/ui/calls/call-e2ee';

interface ReceivedTrack {
  identity: string;
  source: string;
  kind: string;
  width: number;
  framesDecoded: number;
}

let room: Room | null = null;
const chats: Array<{ from: string; text: string; via: string }> = [];
const events: string[] = [];
const media = document.getElementById('media') as HTMLElement;
let audioContext: AudioContext | null = null;
let toneGain: GainNode | null = null;

function remoteTracks(): Array<{ p: RemoteParticipant; pub: RemoteTrackPublication; track: RemoteTrack }> {
  const out: Array<{ p: RemoteParticipant; pub: RemoteTrackPublication; track: RemoteTrack }> = [];
  for (const p of room?.remoteParticipants.values() ?? []) {
    for (const pub of p.trackPublications.values()) if (pub.track) out.push({ p, pub, track: pub.track });
  }
  return out;
}

async function framesDecoded(track: RemoteTrack): Promise<number> {
  const stats = await track.receiver?.getStats();
  let frames = 0;
  stats?.forEach((s) => {
    if (s.type === 'inbound-rtp') frames = Math.max(frames, (s as { framesDecoded?: number }).framesDecoded ?? 0);
  });
  return frames;
}

/**
 * Width of the frames the decoder currently produces (inbound-rtp frameWidth). A video element's videoWidth
 * changes only when a frame is painted, which a background tab on a loaded machine may not do for seconds.
 */
async function decodedWidth(track: RemoteTrack): Promise<number> {
  const stats = await track.receiver?.getStats();
  let width = 0;
  stats?.forEach((s) => {
    if (s.type === 'inbound-rtp') width = (s as { frameWidth?: number }).frameWidth ?? width;
  });
  return width;
}

/** Root mean square of a remote audio track over ~1.5 s, measured with an AnalyserNode. */
async function audioEnergy(track: MediaStreamTrack): Promise<number> {
  audioContext ??= new AudioContext();
  await audioContext.resume();
  const source = audioContext.createMediaStreamSource(new MediaStream([track]));
  const analyser = audioContext.createAnalyser();
  analyser.fftSize = 2048;
  source.connect(analyser);
  const buf = new Float32Array(analyser.fftSize);
  let max = 0;
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 50));
    analyser.getFloatTimeDomainData(buf);
    let sum = 0;
    for (const v of buf) sum += v * v;
    max = Math.max(max, Math.sqrt(sum / buf.length));
  }
  source.disconnect();
  return max;
}

const api = {
  async join(
    url: string,
    token: string,
    publish: {
      camera?: boolean;
      microphone?: boolean;
      singlePeerConnection?: boolean;
      simulcast?: boolean;
      adaptive?: boolean;
      /** Media only through the TURN servers the SFU hands out (iceTransportPolicy 'relay'). */
      relay?: boolean;
      /** Instead of the fake microphone, a WebAudio source as the microphone: a steady tone or silence. */
      tone?: 'on' | 'off';
      /** End-to-end encryption as a secret chat's call has it (call-e2ee.ts): the epoch and its key, hex. */
      e2ee?: { epoch: number; key: string };
    } = {},
  ) {
    const options = {
      singlePeerConnection: publish.singlePeerConnection ?? true,
      adaptiveStream: publish.adaptive ?? false,
      dynacast: publish.adaptive ?? false,
      // The embedded SFU forwards one VP8 layer: the app turns simulcast off when it talks to it.
      publishDefaults: { simulcast: publish.simulcast ?? false, videoCodec: 'vp8' as const, red: false },
    };
    if (publish.e2ee) {
      // livekit's e2ee worker, copied beside this page by the harness.
      const secret = encryptedRoom(options, () => new Worker('./e2ee-worker.js', { type: 'module' }));
      const bytes = Uint8Array.from(publish.e2ee.key.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
      await secret.keys.setEpochKey(publish.e2ee.epoch, bytes);
      await secret.room.setE2EEEnabled(true);
      room = secret.room;
    } else room = new Room(options);
    room
      .on(RoomEvent.ParticipantConnected, (p) => events.push(`joined:${p.identity}`))
      .on(RoomEvent.ParticipantDisconnected, (p) => events.push(`left:${p.identity}`))
      .on(RoomEvent.TrackMuted, (pub, p) => events.push(`muted:${p.identity}:${pub.source}`))
      .on(RoomEvent.TrackUnmuted, (pub, p) => events.push(`unmuted:${p.identity}:${pub.source}`))
      .on(RoomEvent.TrackUnpublished, (pub, p) => events.push(`unpublished:${p.identity}:${pub.source}`))
      .on(RoomEvent.TrackSubscribed, (track, pub, p) => {
        events.push(`subscribed:${p.identity}:${pub.source}`);
        const el = track.attach();
        el.dataset.identity = p.identity;
        media.append(el);
      })
      .on(RoomEvent.TrackStreamStateChanged, (pub, state, p) =>
        events.push(`stream:${p.identity}:${pub.source}:${state}`),
      )
      .on(RoomEvent.Reconnecting, () => events.push('reconnecting'))
      .on(RoomEvent.Reconnected, () => events.push('reconnected'))
      .on(RoomEvent.Disconnected, () => events.push('disconnected'))
      .on(RoomEvent.DataReceived, (payload, p, kind) => {
        chats.push({
          from: p?.identity ?? '?',
          text: new TextDecoder().decode(payload),
          via: kind === 1 ? 'lossy' : 'data',
        });
      });
    room.registerTextStreamHandler('lk.chat', async (reader, from) => {
      chats.push({ from: from.identity, text: await reader.readAll(), via: 'text-stream' });
    });
    await room.connect(url, token, publish.relay ? { rtcConfig: { iceTransportPolicy: 'relay' } } : {});
    if (publish.camera !== false) await room.localParticipant.setCameraEnabled(true);
    if (publish.tone) {
      audioContext ??= new AudioContext();
      await audioContext.resume();
      const osc = audioContext.createOscillator();
      osc.frequency.value = 440;
      toneGain = audioContext.createGain();
      toneGain.gain.value = publish.tone === 'on' ? 0.5 : 0;
      const dest = audioContext.createMediaStreamDestination();
      osc.connect(toneGain).connect(dest);
      osc.start();
      await room.localParticipant.publishTrack(dest.stream.getAudioTracks()[0] as MediaStreamTrack, {
        source: Track.Source.Microphone,
        dtx: false,
      });
    } else if (publish.microphone !== false) await room.localParticipant.setMicrophoneEnabled(true);
    return { sid: room.localParticipant.sid, identity: room.localParticipant.identity };
  },

  async connectOnly(url: string, token: string): Promise<string> {
    const r = new Room();
    try {
      await r.connect(url, token);
      await r.disconnect();
      return 'connected';
    } catch (err) {
      return `${(err as Error).name}: ${(err as Error).message}`;
    }
  },

  participants(): string[] {
    return [...(room?.remoteParticipants.values() ?? [])].map((p) => p.identity).sort();
  },

  events(): string[] {
    return [...events];
  },

  async received(): Promise<ReceivedTrack[]> {
    const out: ReceivedTrack[] = [];
    for (const { p, pub, track } of remoteTracks()) {
      const el = media.querySelector<HTMLVideoElement>(`video[data-identity="${p.identity}"]`);
      const videoEls = [...media.querySelectorAll<HTMLVideoElement>('video')].filter((v) =>
        (v.srcObject as MediaStream | null)?.getTracks().includes(track.mediaStreamTrack),
      );
      out.push({
        identity: p.identity,
        source: pub.source,
        kind: pub.kind,
        width:
          track.kind === Track.Kind.Video ? (await decodedWidth(track)) || ((videoEls[0] ?? el)?.videoWidth ?? 0) : 0,
        framesDecoded: track.kind === Track.Kind.Video ? await framesDecoded(track) : 0,
      });
    }
    return out;
  },

  /** For debugging traces: what this page sends per layer and receives per video, from getStats. */
  async rtpStats(): Promise<string> {
    const parts: string[] = [];
    const stats = await room?.localParticipant.engine.pcManager?.publisher.getStats();
    stats?.forEach((s) => {
      const o = s as Record<string, unknown>;
      if (s.type === 'outbound-rtp' && o.kind === 'video')
        parts.push(`out:${o.rid ?? ''}:${o.frameWidth ?? 0}@${o.framesPerSecond ?? 0}:${o.qualityLimitationReason}`);
    });
    for (const { track } of remoteTracks()) {
      if (track.kind !== Track.Kind.Video) continue;
      (await track.receiver?.getStats())?.forEach((s) => {
        const i = s as Record<string, unknown>;
        if (s.type === 'inbound-rtp')
          parts.push(
            `vw=${[...media.querySelectorAll('video')].map((v) => v.videoWidth).join('/')} in:pk=${i.packetsReceived} recv=${i.framesReceived} dec=${i.framesDecoded} drop=${i.framesDropped} key=${i.keyFramesDecoded} lost=${i.packetsLost} nack=${i.nackCount} pli=${i.pliCount} frz=${i.freezeCount}`,
          );
      });
    }
    return parts.join(' ');
  },

  /** Local candidate type and relay protocol of the selected pair carrying each remote track ('relay/udp', …). */
  async paths(): Promise<string[]> {
    const out = new Set<string>();
    for (const { track } of remoteTracks()) {
      const stats = await track.receiver?.getStats();
      const byId = new Map<string, Record<string, unknown>>();
      stats?.forEach((s) => {
        byId.set(s.id, s as Record<string, unknown>);
      });
      for (const s of byId.values()) {
        if (s.type !== 'transport') continue;
        const pair = byId.get(String(s.selectedCandidatePairId));
        const local = byId.get(String(pair?.localCandidateId));
        if (local) out.add(`${local.candidateType}/${local.relayProtocol ?? local.protocol}`);
      }
    }
    return [...out].sort();
  },

  /** The SRTP profile of every connection this page sends or receives on (the transport stats' srtpCipher). */
  async ciphers(): Promise<string[]> {
    const out = new Set<string>();
    const add = (stats: RTCStatsReport | undefined) =>
      stats?.forEach((s) => {
        const cipher = (s as Record<string, unknown>).srtpCipher;
        if (s.type === 'transport' && typeof cipher === 'string') out.add(cipher);
      });
    add(await room?.localParticipant.engine.pcManager?.publisher.getStats());
    for (const { track } of remoteTracks()) add(await track.receiver?.getStats());
    return [...out].sort();
  },

  /** Gathers relay candidates from a TURN server with the given credentials: how many, and the error codes. */
  async probeTurn(urls: string[], username: string, credential: string): Promise<{ relays: number; errors: number[] }> {
    const pc = new RTCPeerConnection({ iceServers: [{ urls, username, credential }], iceTransportPolicy: 'relay' });
    const errors: number[] = [];
    let relays = 0;
    pc.onicecandidateerror = (e) => errors.push((e as RTCPeerConnectionIceErrorEvent).errorCode);
    const done = new Promise<void>((resolve) => {
      pc.onicecandidate = (e) => {
        if (e.candidate?.type === 'relay') relays++;
        if (!e.candidate) resolve();
      };
      setTimeout(resolve, 10_000);
    });
    pc.createDataChannel('probe');
    await pc.setLocalDescription(await pc.createOffer());
    await done;
    pc.close();
    return { relays, errors };
  },

  /** Turns the published WebAudio tone on or off (see join's `tone`). */
  setTone(on: boolean): void {
    if (toneGain) toneGain.gain.value = on ? 0.5 : 0;
  },

  /** A participant's connection quality as livekit-client has it from the server ('excellent', 'poor', …). */
  quality(identity: string): string {
    const p =
      identity === room?.localParticipant.identity ? room?.localParticipant : room?.remoteParticipants.get(identity);
    return p?.connectionQuality ?? 'none';
  },

  /** The stream state livekit-client has for `identity`'s camera ('active', 'paused', …) from streamStateUpdate. */
  streamState(identity: string): string {
    const pub = room?.remoteParticipants.get(identity)?.getTrackPublication(Track.Source.Camera);
    return pub?.track?.streamState ?? 'none';
  },

  /** Room.activeSpeakers as livekit-client keeps it from the server's speakersChanged. */
  speakers(): string[] {
    return (room?.activeSpeakers ?? []).map((p) => p.identity).sort();
  },

  async audioFrom(identity: string): Promise<number> {
    const found = remoteTracks().find((t) => t.p.identity === identity && t.pub.source === Track.Source.Microphone);
    return found ? audioEnergy(found.track.mediaStreamTrack) : -1;
  },

  async chat(text: string): Promise<void> {
    await room?.localParticipant.sendText(text, { topic: 'lk.chat' });
    await room?.localParticipant.publishData(new TextEncoder().encode(text), { reliable: true });
  },

  async lossy(text: string): Promise<void> {
    await room?.localParticipant.publishData(new TextEncoder().encode(text), { reliable: false });
  },

  /** livekit-client's own fault injection, e.g. 'signal-reconnect' drops the websocket and resumes. */
  async simulate(scenario: 'signal-reconnect' | 'full-reconnect'): Promise<void> {
    await room?.simulateScenario(scenario);
  },

  /** RTP packets received and frames decoded of `identity`'s video (inbound-rtp), 0 before any. */
  async inbound(identity: string): Promise<{ packets: number; decoded: number }> {
    const out = { packets: 0, decoded: 0 };
    for (const { p, track } of remoteTracks()) {
      if (p.identity !== identity || track.kind !== Track.Kind.Video) continue;
      (await track.receiver?.getStats())?.forEach((s) => {
        if (s.type !== 'inbound-rtp') return;
        const i = s as { packetsReceived?: number; framesDecoded?: number };
        out.packets += i.packetsReceived ?? 0;
        out.decoded += i.framesDecoded ?? 0;
      });
    }
    return out;
  },

  /**
   * What this page's camera sends: bytes of all its layers so far (outbound-rtp), when, the encoders' targets summed
   * (bit/s: what the browser's congestion control lets them use), the browser's own uplink estimate (the candidate
   * pair's availableOutgoingBitrate, bit/s; null before it has one), and per layer `rid:width:target kbit/s:limit`.
   */
  async uplink(): Promise<{ bytes: number; at: number; estimate: number | null; target: number; layers: string[] }> {
    const out = { bytes: 0, at: performance.now(), estimate: null as number | null, target: 0, layers: [] as string[] };
    const pub = room?.localParticipant.getTrackPublication(Track.Source.Camera);
    (await pub?.track?.sender?.getStats())?.forEach((s) => {
      if (s.type === 'outbound-rtp') {
        const o = s as {
          bytesSent?: number;
          rid?: string;
          frameWidth?: number;
          targetBitrate?: number;
          qualityLimitationReason?: string;
        };
        out.bytes += o.bytesSent ?? 0;
        out.target += o.targetBitrate ?? 0;
        out.layers.push(
          `${o.rid}:${o.frameWidth}:${Math.round((o.targetBitrate ?? 0) / 1000)}:${o.qualityLimitationReason}`,
        );
      }
      const pair = s as { type: string; nominated?: boolean; availableOutgoingBitrate?: number };
      if (pair.type === 'candidate-pair' && pair.nominated && pair.availableOutgoingBitrate !== undefined)
        out.estimate = pair.availableOutgoingBitrate;
    });
    return out;
  },

  /** Whether this page's room encrypts end to end, and whether every remote participant's tracks are encrypted. */
  encryption(): { local: boolean; remote: boolean[] } {
    return {
      local: room?.isE2EEEnabled ?? false,
      remote: [...(room?.remoteParticipants.values() ?? [])].map((p) => p.isEncrypted),
    };
  },

  localSid(): string {
    return room?.localParticipant.sid ?? '';
  },

  chats() {
    return [...chats];
  },

  async setMicrophone(enabled: boolean): Promise<void> {
    await room?.localParticipant.setMicrophoneEnabled(enabled);
  },

  /** getDisplayMedia through livekit-client (the spec's Chromium auto-selects the whole screen). */
  async shareScreen(): Promise<void> {
    await room?.localParticipant.setScreenShareEnabled(true);
  },

  /** Asks the SFU for the lowest or highest simulcast layer of everything `identity` sends. */
  setQuality(identity: string, quality: 'low' | 'high'): void {
    for (const { p, pub } of remoteTracks()) {
      if (p.identity === identity && pub.kind === Track.Kind.Video) {
        pub.setVideoQuality(quality === 'low' ? VideoQuality.LOW : VideoQuality.HIGH);
      }
    }
  },

  async leave(): Promise<void> {
    await room?.disconnect();
  },
};

(window as unknown as { sfu: typeof api }).sfu = api;
