// What the SFU browser specs share: calling the test page's `window.sfu` API, and opening a caller in its own
// browser context (camera and microphone allowed) that joins a room of the harness's SFU.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { mintToken, type SfuHarness } from './harness';

/** Calls `window.sfu[fn](...args)` on the test page (e2e/sfu-page/main.ts). */
export const call = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(([f, a]) => (window as never as Record<string, Record<string, (...x: unknown[]) => T>>).sfu[f as string](...(a as unknown[])), [fn, args] as const) as Promise<T>;

/** A caller in a fresh context (kept in `contexts` for the spec to close) joined to `room` as `identity`. */
export async function openCaller(
  browser: Browser,
  h: SfuHarness,
  contexts: BrowserContext[],
  identity: string,
  room: string,
  options: Record<string, unknown>,
): Promise<Page> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken(identity, room), options);
  return page;
}
