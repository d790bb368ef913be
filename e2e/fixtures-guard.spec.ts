// The fixtures' own guard (fixtures.ts, noContextLeftOpen): a browser context a test opens and leaves open fails
// that test, since its pages would live on beside the worker's next tests. The first test leaks one on purpose and
// is expected to fail; the second closes its own and passes.
import { test } from './fixtures';

test('a browser context left open fails the test that opened it', async ({ browser }) => {
  test.fail();
  const context = await browser.newContext();
  await context.newPage();
});

test('a browser context closed by its test, or opened with newContext, passes', async ({ browser, newContext }) => {
  const own = await browser.newContext();
  await own.close();
  await (await newContext()).newPage();
});
