// What the SFU browser specs share: calling the test page's `window.sfu` API and joining a room with it (callers in a
// fresh context are opened by the `openCaller` fixture, e2e/fixtures.ts).
import { expect, type Page } from '@playwright/test';
import { mintToken, type SfuHarness } from './harness';

/** Calls `window.sfu[fn](...args)` on the test page (e2e/sfu-page/main.ts). */
export const call = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(
    ([f, a]) =>
      (window as never as Record<string, Record<string, (...x: unknown[]) => T>>).sfu[f as string](...(a as unknown[])),
    [fn, args] as const,
  ) as Promise<T>;

/** Opens the test page on `page` and joins `room` of the harness's SFU as `identity` (join's options). */
export async function joinRoom(
  page: Page,
  h: SfuHarness,
  identity: string,
  room: string,
  options: Record<string, unknown> = {},
): Promise<void> {
  await page.goto(h.pageUrl);
  await call(page, 'join', h.sfu.url, await mintToken(identity, room), options);
}

/** Audio packets the SFU has received from a participant so far (50 a second while its microphone sends). */
export function audioPacketsIn(h: SfuHarness, room: string, identity: string): number {
  const p = [...(h.sfu.rooms.get(room)?.participants.values() ?? [])].find((x) => x.identity === identity);
  return [...(p?.published.values() ?? [])].find((t) => t.kind === 'audio')?.packetsIn ?? 0;
}

/**
 * Waits until `identity` has sent `n` more audio packets: a window of the call's own time (n / 50 seconds) counted in
 * what the SFU received, not slept.
 */
export async function audioWindow(h: SfuHarness, room: string, identity: string, n: number): Promise<void> {
  const from = audioPacketsIn(h, room, identity);
  await expect
    .poll(() => audioPacketsIn(h, room, identity), { timeout: 30_000, message: `${n} audio packets from ${identity}` })
    .toBeGreaterThan(from + n);
}
