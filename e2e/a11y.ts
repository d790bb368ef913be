// Accessibility gate for browser tests: axe-core with the WCAG 2.0/2.1 A and AA rules; a serious or critical
// violation fails the test with a readable list (rule, impact, help, and the offending elements).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

export interface A11yOptions {
  /** Limit the scan to this CSS selector (e.g. a dialog); the whole page by default. */
  include?: string;
}

export async function expectNoSeriousA11yViolations(page: Page, label: string, opts: A11yOptions = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (opts.include) builder = builder.include(opts.include);
  const results = await builder.analyze();
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
  const report = blocking
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map((n) => `    - ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ').trim() ?? ''}`)
        .join('\n');
      const more = v.nodes.length > 5 ? `\n    … and ${v.nodes.length - 5} more` : '';
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
  // Compared by rule id so a failure prints the readable report above, not axe's whole result objects.
  expect(
    blocking.map((v) => v.id),
    `${label}: serious/critical axe violations:\n${report}`,
  ).toEqual([]);
}
