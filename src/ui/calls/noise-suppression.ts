// «Шумоподавление» (docs/calls.md "Noise suppression"): RNNoise from @sapphi-red/web-noise-suppressor in an
// AudioWorklet between the microphone and what is sent, as a livekit-client track processor. Its worklet and
// WebAssembly are the build's own assets (served from our origin; the page's CSP allows compiling WebAssembly and
// nothing else new). This module loads only when a call's microphone is on with suppression chosen.
import { loadRnnoise, RnnoiseWorkletNode } from '@sapphi-red/web-noise-suppressor';
import wasmUrl from '@sapphi-red/web-noise-suppressor/rnnoise.wasm?url';
import simdUrl from '@sapphi-red/web-noise-suppressor/rnnoise_simd.wasm?url';
import workletUrl from '@sapphi-red/web-noise-suppressor/rnnoiseWorklet.js?url';
import type { AudioProcessorOptions, Track, TrackProcessor } from 'livekit-client';

/** The processor's name (livekit-client shows it; the conference asks whether it is on by it). */
export const NOISE_SUPPRESSOR = 'rnnoise';

/** The WebAssembly, fetched once per page (the SIMD build where the browser has SIMD). */
let binary: Promise<ArrayBuffer> | null = null;
/** Audio contexts that already have the worklet's module. */
const withModule = new WeakMap<AudioContext, Promise<void>>();

function moduleIn(ctx: AudioContext): Promise<void> {
  let loaded = withModule.get(ctx);
  if (!loaded) {
    loaded = ctx.audioWorklet.addModule(workletUrl);
    withModule.set(ctx, loaded);
  }
  return loaded;
}

/** A track processor that runs the microphone through RNNoise (mono, as the microphone is sent). */
export function noiseSuppressor(): TrackProcessor<Track.Kind.Audio, AudioProcessorOptions> {
  let source: MediaStreamAudioSourceNode | null = null;
  let node: RnnoiseWorkletNode | null = null;
  let sink: MediaStreamAudioDestinationNode | null = null;
  const teardown = () => {
    source?.disconnect();
    node?.disconnect();
    node?.destroy();
    sink?.stream.getTracks().forEach((t) => {
      t.stop();
    });
    source = node = sink = null;
  };
  const processor: TrackProcessor<Track.Kind.Audio, AudioProcessorOptions> = {
    name: NOISE_SUPPRESSOR,
    async init({ track, audioContext }) {
      if (!binary) {
        binary = loadRnnoise({ url: wasmUrl, simdUrl });
        binary.catch(() => {
          binary = null;
        });
      }
      const [wasmBinary] = await Promise.all([binary, moduleIn(audioContext)]);
      source = audioContext.createMediaStreamSource(new MediaStream([track]));
      node = new RnnoiseWorkletNode(audioContext, { wasmBinary, maxChannels: 1 });
      sink = audioContext.createMediaStreamDestination();
      source.connect(node).connect(sink);
      processor.processedTrack = sink.stream.getAudioTracks()[0];
    },
    async restart(opts) {
      teardown();
      await processor.init(opts);
    },
    async destroy() {
      teardown();
      processor.processedTrack = undefined;
    },
  };
  return processor;
}
