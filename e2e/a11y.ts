// Accessibility gate for browser tests: axe-core with the WCAG 2.0/2.1 A and AA rules over the whole document in
// the theme the page shows, then the colour rules in the other one; a serious or critical violation fails the test with a
// readable list (theme, rule, impact, help, and the offending elements).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);
type Scheme = 'light' | 'dark';

/** Shows `scheme` on <html data-theme> at once (no colour transitions half way); returns the scheme it replaced. */
function showScheme(page: Page, scheme: Scheme): Promise<Scheme> {
  return page.evaluate((next) => {
    const root = document.documentElement;
    const was = root.dataset.theme === 'dark' ? 'dark' : 'light';
    const still = document.createElement('style');
    still.textContent = '*, *::before, *::after { transition: none !important; }';
    document.head.append(still);
    root.dataset.theme = next;
    getComputedStyle(root).backgroundColor; // applies the theme before transitions come back
    still.remove();
    return was;
  }, scheme);
}

/**
 * Waits for the transitions and animations under way to end (a button turning enabled fades in over a few
 * frames): axe must read the colours the page settles on, not a frame half way. Endless ones (a spinner) are not
 * waited for.
 */
function settled(page: Page): Promise<void> {
  return page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Runs `check` with transitions and animations jumping to their end: a control that changes state while axe reads
 * the page (a button enabled when its part's data arrives, 0.15 s of opacity) shows its final colours, not a frame
 * half way — axe once read a primary button at 4.48:1 while it faded in to its 4.85:1.
 */
async function stillDuring<T>(page: Page, check: () => Promise<T>): Promise<T> {
  await page.evaluate(() => {
    const still = document.createElement('style');
    still.id = 'a11y-still';
    still.textContent =
      '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';
    document.head.append(still);
  });
  try {
    return await check();
  } finally {
    await page.evaluate(() => document.getElementById('a11y-still')?.remove());
  }
}

/** What a theme changes: colours alone (themes.css sets custom properties, nothing else). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function blockingReport(
  page: Page,
  scheme: Scheme,
  only: 'all' | 'colours',
): Promise<{ ids: string[]; report: string }> {
  // label-content-name-mismatch (WCAG 2.5.3) is experimental in axe, off unless asked for.
  const builder = new AxeBuilder({ page });
  const results = await stillDuring(page, () =>
    (only === 'colours'
      ? builder.withRules(COLOUR_RULES)
      : builder.withTags(WCAG_TAGS).options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    ).analyze(),
  );
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const report = blocking
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `    - ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ').trim() ?? ''}`)
        .join('\n');
      const more = v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : '';
      return `  [${scheme}] [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
  return { ids: blocking.map((v) => `${scheme}: ${v.id}`), report };
}

/** The whole page, in both themes: what the user sees now, whichever part of it just changed. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  const shown: Scheme = await page.evaluate(() =>
    document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light',
  );
  const other: Scheme = shown === 'dark' ? 'light' : 'dark';
  await settled(page);
  const first = await blockingReport(page, shown, 'all');
  await showScheme(page, other);
  // The other theme differs in colours only: its contrast rules, not the whole audit again.
  const second = await blockingReport(page, other, 'colours').finally(() => showScheme(page, shown));
  // Compared by rule id so a failure prints the readable report above, not axe's whole result objects.
  expect(
    [...first.ids, ...second.ids],
    `${label}: serious/critical axe violations:\n${[first.report, second.report].filter(Boolean).join('\n')}`,
  ).toEqual([]);
}
