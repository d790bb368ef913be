import { expect, test } from '@playwright/test';
import { startAppServer } from './server';
import type { TestServer } from '../tests/server/harness';

let srv: TestServer;
test.beforeAll(async () => {
  srv = await startAppServer();
});
test.afterAll(async () => {
  await srv?.close();
});

test('the server serves the built client on one origin', async ({ page }) => {
  await page.goto(`${srv.url}/`);
  await expect(page).toHaveTitle(/Беседа/);
  const health = await page.request.get(`${srv.url}/api/health`);
  expect(health.status()).toBe(200);
});
