// Entry bundled for Chromium by bench/client/secret.ts: exposes the shared measuring steps to page.evaluate.
import { measureAesGcm, measureSecret } from './measure';

Object.assign(globalThis, { __secretBench: { measureSecret, measureAesGcm } });
