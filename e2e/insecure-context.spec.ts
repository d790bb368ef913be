// A page opened over plain http from another address than localhost (a LAN address: no secure context) cannot have
// the microphone, the camera, the service worker or Web Push. «Позвонить», «Позвонить с видео» and the voice
// message's microphone say so in Russian with the server's https address as a link (its PUBLIC_URL), never the
// browser's English error, and a call that could not start rings nobody and leaves no entry in the conversation;
// the settings page says the same of notifications. Chromium maps the name beseda.test to 127.0.0.1
// (--host-resolver-rules), so the page is http://beseda.test:<port>, which is not a secure context.
import { chromiumArgs, chromiumPath } from '../playwright.config';
import { expect, test } from './fixtures';
import { apiCall } from './users';

const HOST = 'beseda.test';
const SECURE_URL = 'https://beseda.example.org';
const CALLS_TEXT = `Звонки и голосовые сообщения работают только по защищённому адресу (${SECURE_URL})`;
const NOTIFICATIONS_TEXT = `Уведомления работают только по защищённому адресу (${SECURE_URL})`;

test.use({
  serverOptions: {
    ...(process.env.E2E_CLIENT_DIR ? { clientDir: process.env.E2E_CLIENT_DIR } : {}),
    publicUrl: SECURE_URL,
  },
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  },
});

test('on a plain-http LAN address, calls and the microphone say to use the https address; no call entry is written', async ({
  srv,
  friends: { a, b, conversationId },
  openSignedIn,
}) => {
  const lanUrl = `http://${HOST}:${new URL(srv.url).port}`;
  // Борис is online on a secure page: an invitation that went out would ring him and be logged.
  const { page: pb } = await openSignedIn(b);
  await expect(pb.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });

  const { page: pa } = await openSignedIn(a, { contextOptions: { baseURL: lanUrl } });
  await pa.goto(`${lanUrl}/`);
  expect(await pa.evaluate(() => window.isSecureContext)).toBe(false);
  await expect(pa.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
  await pa.locator(`[data-conversation-id="${conversationId}"]`).first().click();

  for (const button of ['Позвонить', 'Позвонить с видео']) {
    await pa.getByRole('button', { name: button, exact: true }).click();
    const notice = pa.locator('.call-notice');
    await expect(notice).toHaveText(new RegExp(`^${CALLS_TEXT.replace(/[().]/g, '\\$&')}`));
    await expect(notice.getByRole('link', { name: SECURE_URL })).toHaveAttribute('href', SECURE_URL);
    await expect(pa.getByText(/getUserMedia|Cannot read properties/)).toHaveCount(0);
    await expect(pa.getByRole('dialog')).toHaveCount(0);
    await notice.getByRole('button', { name: 'Закрыть уведомление' }).click();
    await expect(notice).toHaveCount(0);
  }

  await pa.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
  const recorder = pa.getByTestId('recorder');
  await expect(recorder.getByRole('alert')).toHaveText(CALLS_TEXT);
  await expect(recorder.getByRole('link', { name: SECURE_URL })).toHaveAttribute('href', SECURE_URL);
  await expect(pa.getByText('Этот браузер не умеет записывать звук')).toHaveCount(0);

  // Nothing rang Борис, and no call entry is in the timeline or stored.
  await expect(pb.getByRole('dialog')).toHaveCount(0);
  await expect(pa.getByText(/Отменённый звонок|Пропущенный звонок/)).toHaveCount(0);
  const { messages } = await apiCall<{ messages: { type: string }[] }>(
    srv.url,
    'GET',
    `/api/conversations/${conversationId}/messages`,
    undefined,
    a.accessToken,
  );
  expect(messages.filter((m) => m.type === 'CALL')).toEqual([]);
  const history = await apiCall<{ calls: unknown[] }>(srv.url, 'GET', '/api/calls', undefined, a.accessToken);
  expect(history.calls).toEqual([]);

  // Notifications: the settings page says the same of them.
  await pa.goto(`${lanUrl}/settings`);
  await expect(pa.locator('.settings-notifications .form-hint')).toHaveText(NOTIFICATIONS_TEXT);
  await expect(pa.locator('.settings-notifications').getByRole('link', { name: SECURE_URL })).toHaveAttribute(
    'href',
    SECURE_URL,
  );
});
