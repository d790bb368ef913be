import { expect, test } from './fixtures';

test('the server serves the built client on one origin', async ({ srv, page }) => {
  await page.goto(`${srv.url}/`);
  await expect(page).toHaveTitle(/Беседа/);
  const health = await page.request.get(`${srv.url}/api/health`);
  expect(health.status()).toBe(200);
});
