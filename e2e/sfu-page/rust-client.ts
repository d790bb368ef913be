// A participant driven by @livekit/rtc-node (LiveKit's Rust SDK): publishes a generated 440 Hz tone and a moving
// test pattern (640×360 at 15 fps unless a camera is given), and records what it receives. Used by the rtc-node
// specs and tests as an independent client.
import { randomFillSync } from 'node:crypto';
import { FfiHandle } from '@livekit/rtc-ffi-bindings';
import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  LocalVideoTrack,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  type RoomOptions,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoCodec,
  VideoFrame,
  VideoSource,
  VideoStream,
} from '@livekit/rtc-node';

/**
 * The SDK drops some native handles from inside its own event listeners (a remote publication's on
 * `trackUnpublished`, a stream's on its end); when the native side has already let that handle go, the drop throws
 * «trying to drop an invalid handle» where no caller can catch it, and the test process sees an uncaught exception.
 * A handle that is already gone is the state the drop wanted: say so on stderr, with the stack, and go on.
 */
const dropHandle = FfiHandle.prototype.dispose;
FfiHandle.prototype.dispose = function dispose(this: FfiHandle): void {
  try {
    dropHandle.call(this);
  } catch (e) {
    if (!(e instanceof Error) || e.message !== 'trying to drop an invalid handle') throw e;
    process.stderr.write(`rtc-node dropped handle ${this.handle} twice: ${new Error().stack ?? ''}\n`);
  }
};

export interface RustReceived {
  videoFrames: Map<string, { frames: number; width: number }>;
  audioPeak: Map<string, number>;
  data: Array<{ from: string; text: string }>;
}

export interface PatternCamera {
  width: number;
  height: number;
  fps: number;
  /** Bits per second the encoder may use; the SDK picks a rate for the resolution when absent. */
  maxBitrate?: number;
  /** Frames of noise rather than the moving pattern. */
  noise?: boolean;
}

const lightPattern: PatternCamera = { width: 640, height: 360, fps: 15 };

export class RustParticipant {
  readonly room = new Room();
  readonly received: RustReceived = { videoFrames: new Map(), audioPeak: new Map(), data: [] };
  private timers: NodeJS.Timeout[] = [];
  private readers: Array<ReadableStreamDefaultReader<unknown>> = [];

  /** consume = false leaves received frames with libwebrtc (the benchmark's subscribers). */
  constructor(private readonly consume = true) {}

  /** singlePeerConnection = false makes the Rust SDK use the legacy /rtc two-peer-connection flow (its default). */
  async connect(url: string, token: string, singlePeerConnection = true): Promise<void> {
    this.room
      .on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _pub: RemoteTrackPublication, p: RemoteParticipant) => {
        if (this.consume) this.read(track, p.identity);
      })
      .on(RoomEvent.DataReceived, (payload: Uint8Array, p?: RemoteParticipant) => {
        this.received.data.push({ from: p?.identity ?? '?', text: new TextDecoder().decode(payload) });
      });
    // The Rust SDK takes the single-peer-connection (/rtc/v1) path only when asked.
    await this.room.connect(url, token, { autoSubscribe: true, dynacast: false, singlePeerConnection } as RoomOptions);
  }

  /** The tests' default is a light 640×360 at 15 fps; the benchmark can publish a heavier camera (bench/run.ts). */
  async publishToneAndPattern(camera: PatternCamera = lightPattern): Promise<void> {
    const { width, height, fps, maxBitrate } = camera;
    const audio = new AudioSource(48000, 1);
    const video = new VideoSource(width, height);
    const videoEncoding = maxBitrate ? { maxBitrate: BigInt(maxBitrate), maxFramerate: fps } : undefined;
    const publish = (source: TrackSource) =>
      new TrackPublishOptions({
        source,
        simulcast: false,
        videoCodec: VideoCodec.VP8,
        red: false,
        dtx: false,
        ...(source === TrackSource.SOURCE_CAMERA && videoEncoding ? { videoEncoding } : {}),
      });
    await this.room.localParticipant?.publishTrack(
      LocalAudioTrack.createAudioTrack('tone', audio),
      publish(TrackSource.SOURCE_MICROPHONE),
    );
    await this.room.localParticipant?.publishTrack(
      LocalVideoTrack.createVideoTrack('pattern', video),
      publish(TrackSource.SOURCE_CAMERA),
    );
    let sample = 0;
    this.timers.push(
      setInterval(() => {
        const pcm = new Int16Array(480);
        for (let i = 0; i < pcm.length; i++)
          pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * sample++) / 48000));
        audio.captureFrame(new AudioFrame(pcm, 48000, 1, 480)).catch(() => {});
      }, 10),
    );
    let n = 0;
    const size = width * height * 4;
    // Noise, as a camera's sensor gives: each frame a window at a random place in a field of random bytes, which
    // the encoder cannot predict from the last frame, so it spends the bitrate it is allowed (the pattern needs far
    // less).
    const field = camera.noise ? randomFillSync(new Uint8Array(size * 2)) : undefined;
    const rgba = new Uint8Array(size);
    this.timers.push(
      setInterval(
        () => {
          n++;
          if (field) {
            const at = 4 * Math.floor((Math.random() * size) / 4);
            video.captureFrame(new VideoFrame(field.subarray(at, at + size), width, height, VideoBufferType.RGBA));
            return;
          }
          for (let i = 0; i < rgba.length; i += 4) {
            const x = (i / 4) % width;
            rgba[i] = (x + n * 8) & 255;
            rgba[i + 1] = (n * 3) & 255;
            rgba[i + 2] = 128;
            rgba[i + 3] = 255;
          }
          video.captureFrame(new VideoFrame(rgba, width, height, VideoBufferType.RGBA));
        },
        Math.round(1000 / fps),
      ),
    );
  }

  async publishText(text: string): Promise<void> {
    await this.room.localParticipant?.publishData(new TextEncoder().encode(text), { reliable: true });
  }

  private read(track: RemoteTrack, identity: string): void {
    const key = `${identity}:${track.kind === TrackKind.KIND_VIDEO ? 'video' : 'audio'}`;
    if (track.kind === TrackKind.KIND_VIDEO) {
      const reader = new VideoStream(track).getReader();
      this.readers.push(reader as ReadableStreamDefaultReader<unknown>);
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done || !value) return;
          const prev = this.received.videoFrames.get(key) ?? { frames: 0, width: 0 };
          this.received.videoFrames.set(key, { frames: prev.frames + 1, width: value.frame.width });
        }
      })();
    } else {
      const reader = new AudioStream(track, 48000, 1).getReader();
      this.readers.push(reader as ReadableStreamDefaultReader<unknown>);
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done || !value) return;
          let peak = this.received.audioPeak.get(key) ?? 0;
          for (const s of value.data) peak = Math.max(peak, Math.abs(s));
          this.received.audioPeak.set(key, peak);
        }
      })();
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const r of this.readers) await r.cancel().catch(() => {});
    await this.room.disconnect();
  }
}
