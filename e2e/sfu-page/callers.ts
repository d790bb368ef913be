// What the SFU browser specs share: calling the test page's `window.sfu` API (callers that join a room are opened
// by the `openCaller` fixture, e2e/fixtures.ts).
import type { Page } from '@playwright/test';

/** Calls `window.sfu[fn](...args)` on the test page (e2e/sfu-page/main.ts). */
export const call = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(
    ([f, a]) =>
      (window as never as Record<string, Record<string, (...x: unknown[]) => T>>).sfu[f as string](...(a as unknown[])),
    [fn, args] as const,
  ) as Promise<T>;
