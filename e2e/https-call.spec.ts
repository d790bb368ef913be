// The product as `npm start` runs it on the internet (server/serve.ts): PUBLIC_URL=https://chat.beseda.test, a
// certificate obtained over ACME from a real CA (Debian's pebble, tests/server/pebble.ts), the app and the embedded
// media server's signalling on one HTTPS port. Chromium maps chat.beseda.test to 127.0.0.1 (--host-resolver-rules),
// so the page is https://chat.beseda.test:<port>/: a secure context. Two people register in it, become friends, and
// one calls the other with audio; the media server is reached as wss://chat.beseda.test:<port>/sfu/.
//
// Chromium does not trust pebble's root (a new one on every start, not in its store). The certificate itself is
// checked by the server suite (tests/server/https.test.ts) and here, with Node's https module and pebble's root: it
// is for chat.beseda.test and issued by pebble. The browser is then told to accept the served certificate's key
// (--ignore-certificate-errors-spki-list, launched once the key is known) rather than to ignore certificate errors:
// with a context's `ignoreHTTPSErrors: true` the pages load, but Chromium still refuses the service worker's script
// («An SSL certificate error occurred when fetching the script.», no registration), which a real certificate gets.
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import acme from 'acme-client';
import { chromiumArgs, chromiumPath } from '../playwright.config';
import { loadConfig } from '../server/config';
import { type Served, serve } from '../server/serve';
import { freePort, havePebble, type Pebble, startPebble } from '../tests/server/pebble';
import { expect as baseExpect, test } from './fixtures';
import { PASSWORD, SESSION_KEY } from './users';

// Media, sockets and a certificate order on a shared 2-core machine: more than the default 5 s per assertion.
const expect = baseExpect.configure({ timeout: 15_000 });

const DOMAIN = 'chat.beseda.test';
const INSECURE_NOTICE = 'работают только по защищённому адресу';

// `npm test` installs pebble first (scripts/ensure-test-tools.mjs): without it this spec fails, never skips.
if (!havePebble()) throw new Error('pebble is not installed (apt-get install pebble): the HTTPS call spec needs it');

/** The served certificate's key (as Chromium's SPKI list names it), subject and issuer, asked with Node's https and pebble's root as the only trust. */
function servedCertificate(
  port: number,
  ca: string,
): Promise<{ spki: string; subject: string; altNames: string; issuer: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: '/api/health', servername: DOMAIN, ca, agent: false },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        res.resume();
        resolve({
          spki: createHash('sha256')
            .update(new X509Certificate(cert.raw).publicKey.export({ type: 'spki', format: 'der' }))
            .digest('base64'),
          subject: String(cert.subject?.CN),
          altNames: cert.subjectaltname ?? '',
          issuer: String(cert.issuer?.CN),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A plain-HTTP GET of http://chat.beseda.test:<port>/ (the name mapped to loopback by hand). */
function plainGet(port: number): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', headers: { host: `${DOMAIN}:${port}` }, agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      })
      .on('error', reject);
  });
}

interface Session {
  accessToken: string;
  user: { id: string; eblid: string };
}

/** The session the page signed in with (where the client keeps it). */
const sessionOf = async (page: Page): Promise<Session> =>
  JSON.parse((await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)) ?? 'null');

/** A JSON request made by the page itself (over its https origin), as e2e/users.ts's apiCall makes it from Node. */
async function api<T>(page: Page, method: string, pathname: string, body: unknown, token: string): Promise<T> {
  return page.evaluate(
    async ([method, pathname, body, token]) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== null) headers['content-type'] = 'application/json';
      const res = await fetch(pathname, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${pathname} → ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
    [method, pathname, body ?? null, token] as const,
  ) as Promise<T>;
}

/** Registers through the form and signs in through the other one, landing on the chats page. */
async function registerAndSignIn(page: Page, origin: string, username: string, displayName: string) {
  await page.goto(`${origin}/auth/register`);
  await page.getByLabel('Никнейм').fill(username);
  await page.getByLabel('Отображаемое имя').fill(displayName);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Создать аккаунт' }).click();
  await expect(page).toHaveURL(`${origin}/auth`);
  await expect(page.getByLabel('Никнейм')).toHaveValue(username);
  await page.getByLabel('Пароль').fill(PASSWORD);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await expect(page).toHaveURL(`${origin}/`);
  await expect(page.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
}

/** Whether a remote participant's sound is playing in the page (a media stream, not the ring's file). */
const hearsOther = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('audio')].some(
      (el) => el.srcObject instanceof MediaStream && !el.paused && el.currentTime > 0.5,
    ),
  );

const incomingDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Входящий аудио/видео звонок' });
const callOverlay = (page: Page) => page.getByRole('dialog', { name: /Звонок|Вызов/ });
const unique = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('HTTPS from the server itself (ACME from pebble)', () => {
  let pebble: Pebble;
  let served: Served;
  let root: string;
  let httpPort: number;
  let dataDir: string;
  let cert: Awaited<ReturnType<typeof servedCertificate>>;
  /** The project's Chromium, with chat.beseda.test on loopback and the served certificate's key accepted. */
  let browser: Browser;
  const serverLog: string[] = [];
  const previousAgent = acme.axios.defaults.httpsAgent;

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(90_000);
    httpPort = await freePort();
    pebble = await startPebble(httpPort);
    // The CA's own listener is signed by a throwaway certificate; in production that is a public CA's.
    acme.axios.defaults.httpsAgent = new https.Agent({ ca: pebble.listenerCa });
    root = await pebble.issuerRoot();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beseda-https-e2e-'));
    const config = loadConfig({
      PUBLIC_URL: `https://${DOMAIN}`,
      PORT: String(await freePort()),
      HTTP_PORT: String(httpPort),
      HOST: '127.0.0.1',
      ACME_DIRECTORY: pebble.directoryUrl,
      BACKUP_SCHEDULE: 'off',
      DATA_DIR: dataDir,
      CLIENT_DIR: process.env.E2E_CLIENT_DIR ?? path.resolve('dist'),
      SFU_HOST_CANDIDATES: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    served = await serve(config, { logStream: { write: (line: string) => void serverLog.push(line) }, sfuPort: 0 });
    cert = await servedCertificate(served.port, root);
    browser = await playwright.chromium.launch({
      executablePath: chromiumPath,
      args: [
        ...chromiumArgs,
        '--autoplay-policy=no-user-gesture-required',
        `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`,
        `--ignore-certificate-errors-spki-list=${cert.spki}`,
      ],
    });
  });

  test.afterAll(async () => {
    await browser?.close();
    await served?.close();
    await pebble?.stop();
    acme.axios.defaults.httpsAgent = previousAgent;
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  test.afterEach(({}, info) => {
    if (info.status !== info.expectedStatus && serverLog.length > 0) console.log(serverLog.join(''));
  });

  test('two people register on https://chat.beseda.test, become friends and talk; the media server is reached over wss on the same port', async () => {
    const origin = `https://${DOMAIN}:${served.port}`;

    // The certificate is pebble's, for the name; plain HTTP sends people to https.
    expect(cert.subject).toBe(DOMAIN);
    expect(cert.altNames).toContain(`DNS:${DOMAIN}`);
    expect(cert.issuer).toMatch(/^Pebble Intermediate CA/);
    expect(await plainGet(httpPort)).toEqual({ status: 301, location: `https://${DOMAIN}/` });

    const open = async (label: string): Promise<{ context: BrowserContext; page: Page; sockets: string[] }> => {
      const context = await browser.newContext({ baseURL: origin, permissions: ['camera', 'microphone'] });
      contexts.push(context);
      const page = await context.newPage();
      const sockets: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      page.on('console', (m) => {
        if (m.type() === 'error') console.log(`[${label}] ${m.text()}`);
      });
      page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
      return { context, page, sockets };
    };
    const contexts: BrowserContext[] = [];
    const anna = await open('anna');
    const boris = await open('boris');
    const [pa, pb] = [anna.page, boris.page];

    await pa.goto(`${origin}/`);
    expect(await pa.evaluate(() => window.isSecureContext)).toBe(true);
    expect(await pa.evaluate(() => location.origin)).toBe(origin);
    // The certificate is accepted as valid, not merely let through: the service worker's script is fetched.
    await expect
      .poll(() => pa.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length))
      .toBeGreaterThan(0);

    const annaName = unique('anna');
    const borisName = unique('boris');
    await registerAndSignIn(pa, origin, annaName, 'Анна');
    await registerAndSignIn(pb, origin, borisName, 'Борис');
    expect(await pb.evaluate(() => window.isSecureContext)).toBe(true);

    // Friends and their conversation through the API, as the fixtures make them (e2e/users.ts), but from the pages:
    // Node's own fetch neither knows the name nor trusts pebble.
    const a = await sessionOf(pa);
    const b = await sessionOf(pb);
    const add = await api<{ contact: { status: string } }>(
      pa,
      'POST',
      '/api/contacts/add',
      { identifier: b.user.eblid },
      a.accessToken,
    );
    expect(add.contact.status).not.toBe('ACCEPTED');
    const incoming = await api<{ contacts: { id: string; friend: { id: string } }[] }>(
      pb,
      'GET',
      '/api/contacts?filter=incoming',
      null,
      b.accessToken,
    );
    const request = incoming.contacts.find((c) => c.friend.id === a.user.id);
    expect(request, 'Борис has Анна’s friend request').toBeTruthy();
    await api(pb, 'POST', '/api/contacts/respond', { contactId: request?.id, action: 'accept' }, b.accessToken);
    const { conversation } = await api<{ conversation: { id: string } }>(
      pa,
      'POST',
      '/api/conversations/with',
      { userId: b.user.id },
      a.accessToken,
    );

    // Анна calls Борис with audio from their conversation; he answers.
    await pa.reload();
    await expect(pa.getByTestId('latency')).toHaveClass(/ping-live/, { timeout: 30_000 });
    await pa.locator(`[data-conversation-id="${conversation.id}"]`).first().click();
    await pa.getByRole('button', { name: 'Позвонить', exact: true }).click();
    await expect(incomingDialog(pb)).toContainText('Аудиозвонок', { timeout: 20_000 });
    await expect(incomingDialog(pb)).toContainText('Анна');
    await pb.getByRole('button', { name: 'Ответить', exact: true }).click();
    await expect(incomingDialog(pb)).toHaveCount(0);

    // Both are in the call, each hearing the other through the media server.
    for (const page of [pa, pb]) {
      await expect(callOverlay(page).getByRole('heading', { name: 'Звонок', exact: true })).toBeVisible();
      await expect(page.locator('.call-overlay [data-lk-local-participant="false"]').first()).toBeAttached({
        timeout: 30_000,
      });
      await expect
        .poll(() => hearsOther(page), { timeout: 30_000, message: 'the other side’s sound plays' })
        .toBe(true);
      await expect(page.getByText(INSECURE_NOTICE)).toHaveCount(0);
    }

    // The media server's signalling went over wss on the page's own origin, under /sfu/.
    for (const { sockets } of [anna, boris]) {
      expect(sockets.filter((u) => u.startsWith(`wss://${DOMAIN}:${served.port}/sfu/`)).length).toBeGreaterThan(0);
      expect(sockets.filter((u) => u.startsWith('ws:'))).toEqual([]);
    }

    // Анна hangs up: both overlays close.
    await pa.getByRole('button', { name: 'Завершить звонок' }).click();
    await expect(callOverlay(pa)).toHaveCount(0);
    await expect(callOverlay(pb)).toHaveCount(0);
    for (const context of contexts) await context.close();
  });
});
