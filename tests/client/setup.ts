import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// jsdom has no layout and no ResizeObserver; the message list's virtualizer (virtua) needs one to start. This
// one never reports a size, as jsdom has none to report (rows are checked in Chromium by the e2e tests).
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
