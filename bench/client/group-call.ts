// (h) groupcall — a group's call as its members meet it, in three real Chromium pages with fake cameras against the
// real server and its embedded media server (started here in-process from the benchmark's build, as the e2e tests
// do): A starts a video call in the group «Планёрка»; the figure (1) is the time from A's «Позвонить с видео» to the
// call's mark (📞) on B's chat list; B and C decline the ring, and C joins late from the group's call bar: the
// figure (2) is the time from C's «Присоединиться» to the first decoded frame of A's camera on C's page. A then ends
// it for everyone and the bar goes. BENCH_CALL_RUNS runs (5 unless told), median and worst; times are taken in Node
// around the click and Playwright's wait for the page's state, polled on each animation frame (about 16 ms).
import { performance } from 'node:perf_hooks';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { createGroup, createUser, type E2EUser, makeFriends, signInContext } from '../../e2e/users';
import { startAppWithMediaServer } from '../../e2e/server';
import { mediaChromiumArgs } from '../../playwright.config';
import type { Check } from './run';

const env = process.env;
const RUNS = Number(env.BENCH_CALL_RUNS ?? 5);
/** What a person expects of a call: the others see it on at once, a late joiner sees faces within 2 s. */
const BAR_TARGET_MS = 1_000;
const FIRST_FRAME_TARGET_MS = 2_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const incoming = (page: Page) => page.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' });
const overlay = (page: Page) => page.getByRole('dialog', { name: /Звонок|Вызов/ });

async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  await page.getByTestId('latency').and(page.locator('.ping-live')).waitFor({ timeout: 30_000 });
  return page;
}

export async function runGroupCallPart(opts: { dist: string; checks: Check[]; results: Record<string, unknown> }) {
  const app = await startAppWithMediaServer({ clientDir: opts.dist });
  const browser = await chromium.launch({
    executablePath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: mediaChromiumArgs,
  });
  try {
    const base = app.srv.url;
    const [anna, boris, vera] = await Promise.all([
      createUser(base, 'Анна', 'a'),
      createUser(base, 'Борис', 'b'),
      createUser(base, 'Вера', 'v'),
    ]);
    await makeFriends(base, anna, boris);
    await makeFriends(base, anna, vera);
    const group = await createGroup(base, anna, [boris, vera], 'Планёрка');
    const pageOf = async (u: E2EUser) => {
      const context = await browser.newContext({ baseURL: base, permissions: ['camera', 'microphone'] });
      await signInContext(context, u);
      return openPage(context);
    };
    const [pa, pb, pv] = await Promise.all([pageOf(anna), pageOf(boris), pageOf(vera)]);
    await pa.locator(`[data-conversation-id="${group}"]`).first().click();
    await pv.locator(`[data-conversation-id="${group}"]`).first().click();
    const mark = pb.locator(`[data-conversation-id="${group}"][data-call]`);
    const bar = pv.getByTestId('group-call-bar');

    const barMs: number[] = [];
    const frameMs: number[] = [];
    const elementMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      await pa.getByRole('button', { name: 'Позвонить с видео', exact: true }).click();
      await mark.waitFor({ timeout: 30_000 });
      barMs.push(performance.now() - started);
      await overlay(pa).waitFor({ timeout: 30_000 });
      // The others were rung: they decline, the call goes on with A alone.
      for (const p of [pb, pv]) {
        await incoming(p).getByRole('button', { name: 'Отклонить' }).click({ timeout: 30_000 });
      }
      // A's camera is out before C comes: the figure is C's join, not A's start.
      await pa.waitForFunction(
        () => document.querySelector('.call-overlay [data-lk-local-participant="true"] video')?.clientWidth,
        undefined,
        { timeout: 30_000 },
      );
      const join = bar.getByRole('button', { name: 'Присоединиться' });
      await join.waitFor({ timeout: 30_000 });
      const clicked = performance.now();
      await join.click();
      // Where the time goes: the remote video element (signalling, ICE, DTLS, the subscription), then its first frame.
      await pv.waitForFunction(
        () => document.querySelector('.call-overlay [data-lk-local-participant="false"] video'),
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      elementMs.push(performance.now() - clicked);
      await pv.waitForFunction(
        () =>
          [
            ...document.querySelectorAll<HTMLVideoElement>('.call-overlay [data-lk-local-participant="false"] video'),
          ].some((v) => v.videoWidth > 0),
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      frameMs.push(performance.now() - clicked);
      await overlay(pa).getByRole('button', { name: 'Завершить для всех' }).click();
      await overlay(pv).waitFor({ state: 'detached', timeout: 30_000 });
      await mark.waitFor({ state: 'detached', timeout: 30_000 });
      await bar.waitFor({ state: 'detached', timeout: 30_000 });
    }

    const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, worst ${Math.max(...xs).toFixed(0)} ms`;
    console.log(`\n(h) A group's call, ${RUNS} runs (three Chromium pages, the embedded media server)`);
    console.log(`    A's «Позвонить с видео» → the call's mark on B's chat list: ${fmt(barMs)}`);
    console.log(`    C's «Присоединиться» (a late joiner) → first decoded frame of A's camera: ${fmt(frameMs)}`);
    console.log(
      `      of which until A's video element is there (signalling, ICE, DTLS, subscription): ${fmt(elementMs)}`,
    );
    opts.checks.push(
      [
        `the call bar on another member's list ≤ ${BAR_TARGET_MS} ms (median)`,
        median(barMs) <= BAR_TARGET_MS,
        fmt(barMs),
      ],
      [
        `a late joiner's first remote frame ≤ ${FIRST_FRAME_TARGET_MS} ms (median)`,
        median(frameMs) <= FIRST_FRAME_TARGET_MS,
        fmt(frameMs),
      ],
    );
    opts.results.groupCall = { barMs, frameMs, elementMs };
  } finally {
    await browser.close();
    await app.close();
  }
}
